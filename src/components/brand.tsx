/**
 * The product mark and name, as used in both headers. The mark is inline SVG (public/icons/favicon.svg's
 * shapes), not an image of that file: an SVG image costs the browser a document of its own before the
 * first paint of every page (measured: about 25 ms at 4x CPU on the forum's), and a request.
 */
export function Brand({ light = false }: { light?: boolean }) {
  return (
    <span className={`app-brand${light ? ' app-brand-light' : ''}`}>
      <svg viewBox="0 0 512 512" width="32" height="32" aria-hidden="true" focusable="false">
        <rect width="512" height="512" rx="112" fill="#3b32b8" />
        <path
          d="M124 120h264a44 44 0 0 1 44 44v152a44 44 0 0 1-44 44H248l-84 68v-68h-40a44 44 0 0 1-44-44V164a44 44 0 0 1 44-44z"
          fill="#fff"
        />
        <rect x="166" y="262" width="46" height="58" rx="10" fill="#3b32b8" />
        <rect x="233" y="218" width="46" height="102" rx="10" fill="#f5a524" />
        <rect x="300" y="174" width="46" height="146" rx="10" fill="#3b32b8" />
      </svg>
      <span>Insight Exchange</span>
    </span>
  );
}
