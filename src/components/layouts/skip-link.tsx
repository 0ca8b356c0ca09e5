/** The first focusable element of every page: jumps past the header to the content. */
export function SkipLink() {
  return (
    <a className="app-skip-link" href="#main">
      Skip to main content
    </a>
  );
}
