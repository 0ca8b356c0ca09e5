import { useEffect, useEffectEvent, useRef } from 'react';
import { Spinner } from './spinner';

/**
 * Loads the next page when the end of the list scrolls near, with a visible button as the
 * fallback (keyboard users, browsers without IntersectionObserver).
 */
export function LoadMore({ onLoadMore, loading, label = 'Load more' }: { onLoadMore: () => void; loading: boolean; label?: string }) {
  const sentinel = useRef<HTMLDivElement>(null);
  const onVisible = useEffectEvent(() => onLoadMore());

  useEffect(() => {
    const element = sentinel.current;
    if (!element || typeof IntersectionObserver === 'undefined' || loading) return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) onVisible();
      },
      { rootMargin: '600px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [loading]);

  return (
    <div ref={sentinel} className="app-load-more">
      {/* aria-disabled, not disabled: the button keeps keyboard focus while the next page loads. */}
      <button type="button" className="btn btn-outline-primary" onClick={() => !loading && onLoadMore()} aria-disabled={loading}>
        {loading && <Spinner className="me-2" />}
        {label}
      </button>
    </div>
  );
}
