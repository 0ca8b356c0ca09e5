import { formatAge, formatFullDate } from '../lib/format';

/** When something happened (`at`, ms): "5 minutes ago", its full date and time in its title, machine-readable in `dateTime`. */
export function Age({ at, className }: { at: number; className?: string }) {
  return (
    <time className={className} dateTime={new Date(at).toISOString()} title={formatFullDate(at)}>
      {formatAge(at)}
    </time>
  );
}
