import { IconBulb, IconMessages, IconUsers } from '@tabler/icons-react';

const stats = [
  { value: '2,500+', label: 'Active Members', Icon: IconUsers },
  { value: '1,200+', label: 'Discussions', Icon: IconMessages },
  { value: '500+', label: 'Insights Shared', Icon: IconBulb },
];

/** The forum's headline figures (static, per the spec). */
export function ForumStats() {
  return (
    <ul className="app-stats" aria-label="Community at a glance">
      {stats.map(({ value, label, Icon }) => (
        <li key={label} className="app-stat-card">
          <span className="app-stat-icon" aria-hidden="true">
            <Icon size={22} />
          </span>
          <span>
            <strong className="app-stat-value">{value}</strong>
            <span className="app-stat-label">{label}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}
