import type { ReactNode } from 'react';

/** What a list shows when it has nothing: a title, a line of help and an optional action. */
export function EmptyState({
  icon,
  title,
  children,
  action,
}: {
  icon?: ReactNode;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="app-empty text-center">
      {icon && (
        <div className="app-empty-icon" aria-hidden="true">
          {icon}
        </div>
      )}
      <h3 className="h5 mb-1">{title}</h3>
      {children && <p className="text-body-secondary mb-0">{children}</p>}
      {action && <div className="mt-3">{action}</div>}
    </div>
  );
}
