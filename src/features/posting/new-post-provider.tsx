import { lazy, Suspense, useCallback, useEffect, useMemo, useState, type ComponentType, type ReactNode } from 'react';
import type { EditablePost } from '../../db/posts/editing';
import { NewPostContext } from './new-post-context';
import { useSilence } from '../../hooks/use-silenced';
import { useToast } from '../../components/toast/toast-context';
import { ERRORS, silenceMessage } from '../../shared/errors';
import { afterFirstPosts } from '../../db/storage/idle';
import type { NewPostModalProps } from './new-post-modal';

// The posting code loads on the first hover, focus or click of New Post (or Edit), and otherwise
// once the first posts are painted and the browser is idle (or 100 ms later: a busy machine is
// seldom idle, and its fetch and compile are mostly off the page's thread): fetched on the click,
// a new member's first New Post waited 1.2-2.6 s for it on a busy 2-core machine
// (bench/first-visits.mjs), while the hover before a click is too short to fetch it.
type ModalComponent = ComponentType<NewPostModalProps>;
let loadedModal: ModalComponent | undefined;
const loadModal = () =>
  import('./new-post-modal').then((module) => {
    loadedModal = module.NewPostModal;
    return module;
  });
/** How long the posting code waits for the first posts before it loads anyway (a screen without a list). */
const PRELOAD_AFTER_MS = 3_000;
/**
 * How long it then waits for the browser to be idle, at most: briefly, as the first sync goes on
 * storing pages after the first posts (500 ms made a New Post clicked at once wait for its code:
 * 952 ms median at 4x CPU in bench/first-visits.mjs, against 337 ms with 100).
 */
const PRELOAD_IDLE_MS = 100;
const LazyModal = lazy(() => loadModal().then((module) => ({ default: module.NewPostModal })));

/**
 * The modal: at once when its code is here (a lazy one shows nothing for a frame, and React then
 * holds its fallback up to 300 ms more), else when it arrives. Decided once per mount, so the form
 * is never remounted when the code comes.
 */
function NewPostModal(props: NewPostModalProps) {
  const [Modal] = useState<ModalComponent>(() => loadedModal ?? LazyModal);
  return <Modal {...props} />;
}

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
  useEffect(() => afterFirstPosts(PRELOAD_AFTER_MS, preload, PRELOAD_IDLE_MS), [preload]);
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
