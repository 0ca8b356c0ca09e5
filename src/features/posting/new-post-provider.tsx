import { lazy, Suspense, useCallback, useMemo, useState, type ReactNode } from 'react';
import type { EditablePost } from '../../db/posts/editing';
import { NewPostContext } from './new-post-context';
import { useSilence } from '../../hooks/use-silenced';
import { useToast } from '../../components/toast/toast-context';
import { ERRORS, silenceMessage } from '../../shared/errors';

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
  // A silenced member is offered no New Post (the header hides it); any other way in (the share
  // target, Profile, an Edit) is refused here with the banner's words, and no form opens.
  const silence = useSilence(email);
  const showToast = useToast();
  const silenced = silence !== null;
  const refused = useCallback(() => {
    if (!silence) return false;
    showToast({ title: ERRORS.silenced.title, description: silenceMessage(silence.until, silence.reason), variant: 'error' });
    return true;
  }, [silence, showToast]);
  const open = useCallback(() => {
    if (refused()) return;
    setEditing(null);
    setMounted(true);
    setShow(true);
  }, [refused]);
  const edit = useCallback(
    (post: EditablePost) => {
      if (refused()) return;
      setEditing(post);
      setEdits((count) => count + 1);
      setMounted(true);
      setShow(true);
    },
    [refused],
  );
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
            show={show && !silenced}
            onHide={() => setShow(false)}
            editing={editing}
          />
        </Suspense>
      )}
    </NewPostContext.Provider>
  );
}
