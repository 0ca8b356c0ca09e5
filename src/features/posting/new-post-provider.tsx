import { lazy, Suspense, useCallback, useMemo, useState, type ReactNode } from 'react';
import type { EditablePost } from '../../db/posts/editing';
import { NewPostContext } from './new-post-context';

// The posting code loads on demand: on the first hover, focus or click of New Post (or Edit).
const loadModal = () => import('./new-post-modal');
const NewPostModal = lazy(() => loadModal().then((module) => ({ default: module.NewPostModal })));

/**
 * Owns the New Post modal, available from the forum header on every protected screen; the same
 * modal edits a member's own post ("Edit Post"). A new post and each edit get a fresh form.
 */
export function NewPostProvider({ email, children }: { email: string; children: ReactNode }) {
  const [show, setShow] = useState(false);
  const [mounted, setMounted] = useState(false);
  const [editing, setEditing] = useState<EditablePost | null>(null);
  // Which form is open: the New Post one keeps its state between openings (its draft), an edit starts afresh.
  const [edits, setEdits] = useState(0);
  const open = useCallback(() => {
    setEditing(null);
    setMounted(true);
    setShow(true);
  }, []);
  const edit = useCallback((post: EditablePost) => {
    setEditing(post);
    setEdits((count) => count + 1);
    setMounted(true);
    setShow(true);
  }, []);
  const preload = useCallback(() => {
    void loadModal();
  }, []);
  const controls = useMemo(() => ({ open, edit, preload }), [open, edit, preload]);
  return (
    <NewPostContext.Provider value={controls}>
      {children}
      {mounted && (
        <Suspense fallback={null}>
          <NewPostModal
            key={editing ? `edit-${editing.id}-${edits}` : 'new'}
            email={email}
            show={show}
            onHide={() => setShow(false)}
            editing={editing}
          />
        </Suspense>
      )}
    </NewPostContext.Provider>
  );
}
