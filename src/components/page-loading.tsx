import { Spinner } from './spinner';

/** A quiet placeholder while a screen or its data loads. */
export function PageLoading({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="app-loading" role="status" aria-live="polite">
      <Spinner className="text-primary" />
      <span>{label}</span>
    </div>
  );
}
