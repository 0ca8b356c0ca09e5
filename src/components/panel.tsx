import type { ReactNode } from 'react';

interface PanelProps {
  /** The heading's id, which labels the section. */
  id: string;
  icon: ReactNode;
  title: string;
  /** Extra classes for the card (e.g. `app-panel`). */
  className?: string;
  children: ReactNode;
}

/** A titled card section (sidebar boxes, profile and admin panels): one heading with its icon. */
export function Panel({ id, icon, title, className = '', children }: PanelProps) {
  return (
    <section className={`card ${className}`.trim()} aria-labelledby={id}>
      <div className="card-body">
        <h2 id={id} className="app-sidebar-title">
          {icon} {title}
        </h2>
        {children}
      </div>
    </section>
  );
}
