import { lazy, Suspense, useCallback, useMemo, useState, type ReactNode } from 'react';
import { NewPostContext } from './new-post-context';

// The posting code loads on demand: on the first hover, focus or click of New Post.
const loadModal = () => import('./new-post-modal');
const NewPostModal = lazy(() => loadModal().then((module) => ({ default: module.NewPostModal })));

/** Owns the New Post modal, available from the forum header on every protected screen. */
export function NewPostProvider({ email, children }: { email: string; children: ReactNode }) {
  const [show, setShow] = useState(false);
  const [mounted, setMounted] = useState(false);
  const open = useCallback(() => {
    setMounted(true);
    setShow(true);
  }, []);
  const preload = useCallback(() => {
    void loadModal();
  }, []);
  const controls = useMemo(() => ({ open, preload }), [open, preload]);
  return (
    <NewPostContext.Provider value={controls}>
      {children}
      {mounted && (
        <Suspense fallback={null}>
          <NewPostModal email={email} show={show} onHide={() => setShow(false)} />
        </Suspense>
      )}
    </NewPostContext.Provider>
  );
}
