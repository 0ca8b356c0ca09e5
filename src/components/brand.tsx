/** The product mark and name, as used in both headers. */
export function Brand({ light = false }: { light?: boolean }) {
  return (
    <span className={`app-brand${light ? ' app-brand-light' : ''}`}>
      <img src="/icons/favicon.svg" alt="" width="32" height="32" />
      <span>Insight Exchange</span>
    </span>
  );
}
