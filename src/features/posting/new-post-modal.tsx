import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { CharCounter } from '../../components/char-counter';
import { Spinner } from '../../components/spinner';
import { trapTabKey } from '../../components/focus-trap';
import { registerBeforeReload } from '../../components/reload';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { clearDraft, loadDraft, saveDraft, saveDraftNow } from '../../db/posts/drafts';
import { createPost } from '../../db/posts/posts';
import { CATEGORIES, DEFAULT_CATEGORY, isCategory, type Category } from '../../db/types';
import { LIMITS } from '../../shared/post-rules';
import { validateNewPost } from '../../shared/validation';
import { useAsyncValue } from '../../hooks/use-async-value';

/** The New Post form: Title, Content, Category (default Quantitative); the draft survives reloads. */
export function NewPostModal({ email, show, onHide }: { email: string; show: boolean; onHide: () => void }) {
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [category, setCategory] = useState<Category>(DEFAULT_CATEGORY);
  const [busy, setBusy] = useState(false);
  const [invalid, setInvalid] = useState({ title: false, content: false });
  const showToast = useToast();
  const id = useId();
  const titleRef = useRef<HTMLInputElement>(null);
  const contentRef = useRef<HTMLTextAreaElement>(null);
  const edited = useRef(false);

  // Bring back the saved draft when the modal opens, unless the member already typed. Each
  // opening asks again; an answer that comes after the modal closed is dropped.
  const saved = useAsyncValue(show ? () => loadDraft(email) : undefined, { key: email, fallback: null });
  useEffect(() => {
    const draft = saved?.key === email ? saved.value : null;
    if (!draft || edited.current) return;
    setTitle(draft.title);
    setContent(draft.content);
    setCategory(isCategory(draft.category) ? draft.category : DEFAULT_CATEGORY);
  }, [saved, email]);

  // Save the draft shortly after each change; right away when the page is hidden or goes away,
  // when the modal unmounts (a sign-out in another tab), and right before an update reloads the app.
  const latest = useRef({ email, title, content, category });
  useEffect(() => {
    latest.current = { email, title, content, category };
    if (!edited.current) return undefined;
    const timer = setTimeout(() => void saveDraft(email, { title, content, category }).catch(() => undefined), 300);
    return () => clearTimeout(timer);
  }, [title, content, category, email]);
  useEffect(() => {
    const saveNow = () => {
      if (!edited.current) return undefined;
      const { email: owner, ...draft } = latest.current;
      return saveDraft(owner, draft).catch(() => undefined);
    };
    // Hidden or going away: no time for IndexedDB to commit, so the synchronous copy as well.
    const saveAtOnce = () => {
      if (!edited.current) return;
      const { email: owner, ...draft } = latest.current;
      saveDraftNow(owner, draft);
      void saveNow();
    };
    const onHidden = () => {
      if (document.visibilityState === 'hidden') saveAtOnce();
    };
    const onPageHide = saveAtOnce;
    const stopReloadGuard = registerBeforeReload(saveNow);
    window.addEventListener('pagehide', onPageHide);
    document.addEventListener('visibilitychange', onHidden);
    return () => {
      stopReloadGuard();
      window.removeEventListener('pagehide', onPageHide);
      document.removeEventListener('visibilitychange', onHidden);
      void saveNow();
    };
  }, []);

  const edit =
    <T,>(setter: (value: T) => void) =>
    (value: T) => {
      edited.current = true;
      setter(value);
    };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const problem = validateNewPost(title, content);
    if (problem) {
      const next = {
        title: !title.trim() || title.trim().length > LIMITS.title,
        content: !content.trim() || content.trim().length > LIMITS.content,
      };
      setInvalid(next);
      showToast({ title: problem.title, description: problem.message, variant: 'error' });
      (next.title ? titleRef : contentRef).current?.focus();
      return;
    }
    setInvalid({ title: false, content: false });
    setBusy(true);
    try {
      await createPost({ title, content, category });
      edited.current = false;
      await clearDraft(email).catch(() => undefined);
      setTitle('');
      setContent('');
      setCategory(DEFAULT_CATEGORY);
      onHide();
      showToast({ title: 'Post Submitted!', description: 'Your post is now pending approval from an admin.' });
    } catch (error) {
      // The text stays in the form: nothing the member typed is lost when saving fails.
      showToast(errorToast(error));
    } finally {
      setBusy(false);
    }
  };

  const titleId = `${id}-heading`;
  return (
    <Modal
      show={show}
      onHide={onHide}
      centered
      size="lg"
      aria-labelledby={titleId}
      backdrop={busy ? 'static' : true}
      keyboard={!busy}
      className="app-new-post-modal"
      onKeyDown={trapTabKey}
    >
      <Form onSubmit={submit} noValidate>
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id={titleId} as="h2" className="h4">
            New Post
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Form.Group className="mb-3" controlId={`${id}-title`}>
            <Form.Label>Title</Form.Label>
            <Form.Control
              ref={titleRef}
              value={title}
              onChange={(event) => edit(setTitle)(event.target.value)}
              maxLength={LIMITS.title}
              placeholder="What would you like to discuss?"
              isInvalid={invalid.title}
              aria-invalid={invalid.title}
              aria-describedby={`${id}-title-count`}
              autoFocus
              disabled={busy}
            />
            <CharCounter id={`${id}-title-count`} length={title.length} max={LIMITS.title} noun="A title" />
          </Form.Group>
          <Form.Group className="mb-3" controlId={`${id}-content`}>
            <Form.Label>Content</Form.Label>
            <Form.Control
              ref={contentRef}
              as="textarea"
              rows={7}
              value={content}
              onChange={(event) => edit(setContent)(event.target.value)}
              maxLength={LIMITS.content}
              placeholder="Share your insight, question or experience…"
              isInvalid={invalid.content}
              aria-invalid={invalid.content}
              aria-describedby={`${id}-content-count`}
              disabled={busy}
            />
            <CharCounter id={`${id}-content-count`} length={content.length} max={LIMITS.content} noun="Content" />
          </Form.Group>
          <Form.Group controlId={`${id}-category`}>
            <Form.Label>Category</Form.Label>
            <Form.Select value={category} onChange={(event) => edit(setCategory)(event.target.value as Category)} disabled={busy}>
              {CATEGORIES.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
          <p className="small text-body-secondary mt-3 mb-0">
            Posts are reviewed by an admin before they appear in the forum. Your draft is saved on this device as you type.
          </p>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onHide} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy && <Spinner className="me-2" />}
            Submit Post
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
