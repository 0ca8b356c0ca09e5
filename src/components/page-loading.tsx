import Spinner from 'react-bootstrap/Spinner';

/** A quiet placeholder while a screen or its data loads. */
export function PageLoading({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="app-loading" role="status" aria-live="polite">
      <Spinner animation="border" size="sm" variant="primary" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
