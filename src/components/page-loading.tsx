import { Spinner } from './spinner';

/**
 * A quiet placeholder while a screen or its data loads; its own live region, unless it sits in one
 * that outlives it (`live={false}`: first-sync-placeholder.tsx).
 */
export function PageLoading({ label = 'Loading...', live = true }: { label?: string; live?: boolean }) {
  return (
    <div className="app-loading" {...(live ? { role: 'status', 'aria-live': 'polite' as const } : {})}>
      <Spinner className="text-primary" />
      <span>{label}</span>
    </div>
  );
}
