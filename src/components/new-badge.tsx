/** The attribute that keeps an element out of the forum snapshot (it belongs to one view only). */
export const NOT_IN_SNAPSHOT = 'data-not-in-snapshot';

/** "New": arrived since the member's last visit (shown for the rest of this view once seen). */
export function NewBadge() {
  return (
    <span className="badge text-bg-primary app-new-badge" {...{ [NOT_IN_SNAPSHOT]: '' }}>
      New
    </span>
  );
}
