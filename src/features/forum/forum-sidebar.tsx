import { IconAward, IconTrendingUp } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { paths } from '../../config/paths';
import { Avatar } from '../../components/avatar';
import { Panel } from '../../components/panel';
import { tagKey } from '../../shared/post-rules';
import type { LevelOf } from '../../shared/follows';

// Hard-coded, as the spec describes them.
const topContributors = [
  { name: 'Sarah Chen', email: 'sarah.chen@northbeam-research.com', detail: '156 posts · AI & Technology' },
  { name: 'Marcus Johnson', email: 'marcus.johnson@fieldnotes.co', detail: '128 posts · Qualitative' },
];

const trendingTopics = [
  { topic: 'AI in research', posts: 342 },
  { topic: 'Synthetic respondents', posts: 218 },
  { topic: 'Behavioral economics', posts: 187 },
  { topic: 'Mobile-first surveys', posts: 164 },
  { topic: 'Data privacy', posts: 139 },
];

/**
 * Top contributors and trending topics (each opens the search for its tag); below the list on a
 * phone, beside it on a desktop. `levelOf`: the member's levels (a muted tag leaves the trending
 * topics, as its posts have left the list).
 */
export function ForumSidebar({ levelOf }: { levelOf: LevelOf }) {
  const topics = trendingTopics.filter(({ topic }) => levelOf('tag', tagKey(topic)) !== 'muted');
  return (
    <div className="app-sidebar">
      <Panel id="top-contributors" icon={<IconAward aria-hidden="true" size={20} />} title="Top Contributors">
        <ul className="list-unstyled mb-0 app-contributors">
          {topContributors.map((person) => (
            <li key={person.email}>
              <Avatar name={person.name} seed={person.email} size={36} />
              <span>
                <span className="fw-semibold d-block">{person.name}</span>
                <span className="small text-body-secondary">{person.detail}</span>
              </span>
            </li>
          ))}
        </ul>
      </Panel>
      <Panel id="trending-topics" icon={<IconTrendingUp aria-hidden="true" size={20} />} title="Trending Topics">
        <ol className="list-unstyled mb-0 app-topics">
          {topics.map(({ topic, posts }) => (
            <li key={topic}>
              <Link className="app-topic" to={`${paths.forum}?q=${encodeURIComponent(`tag:"${topic}"`)}`}>
                #{topic}
              </Link>
              <span className="small text-body-secondary">{posts} posts</span>
            </li>
          ))}
        </ol>
      </Panel>
    </div>
  );
}
