/** A small Bootstrap spinner; decorative, so the text beside it says what is happening. */
export function Spinner({ className = '' }: { className?: string }) {
  return <span className={`spinner-border spinner-border-sm ${className}`.trim()} aria-hidden="true" />;
}
