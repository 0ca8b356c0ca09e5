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
import { focusWriting, WritePreview } from '../../components/markdown/write-preview';
import { clearDraft, loadDraft, saveDraft, saveDraftNow } from '../../db/posts/drafts';
import { editPost, loadEditDraft, type EditablePost } from '../../db/posts/editing';
import { createPost } from '../../db/posts/posts';
import { useLiveQuery } from 'dexie-react-hooks';
import { DEFAULT_CATEGORY } from '../../db/types';
import { listPostableCategories } from '../../db/groups/groups';
import { DEFAULT_CATEGORIES } from '../../shared/categories';
import { LIMITS, parseTags, TAG_LIMITS } from '../../shared/post-rules';
import { hiddenText, validateNewPost, validateTags } from '../../shared/validation';
import { withoutHidden } from '../../shared/text-checks';
import { useAsyncValue } from '../../hooks/use-async-value';
import { getSyncStatus } from '../../sync/status';
import { submittedToast } from './submitted-toast';
import { useMentions } from '../../components/mentions';
import { validatePoll } from '../../shared/polls';
import { EMPTY_POLL, PollEditor, pollDefinition, type PollDraft } from './poll-editor';
import { AttachmentsEditor, useAttachFiles } from '../../components/attachments/attachments-editor';
import type { Attachment } from '../../shared/attachments';
import './new-post-modal.scss';

export interface NewPostModalProps {
  email: string;
  show: boolean;
  onHide: () => void;
  /** The member's own post to edit ("Edit Post"), or none for a new post. */
  editing?: EditablePost | null;
}

/** A category's id as a draft or post holds it (none: the spec's default). */
const categoryOf = (value: string | undefined): string => value || DEFAULT_CATEGORY;

interface OneLineTexts {
  title: string;
  tags: string;
  poll: PollDraft | null;
}

/** The one-line texts without their hidden characters (shared/text-checks.ts), or null when none holds one. */
function withoutHiddenCharacters(texts: OneLineTexts): OneLineTexts | null {
  const line = (text: string) => withoutHidden(text, 'line');
  const poll = texts.poll && { ...texts.poll, question: line(texts.poll.question), options: texts.poll.options.map(line) };
  const cleaned = { title: line(texts.title), tags: line(texts.tags), poll };
  return JSON.stringify(cleaned) === JSON.stringify(texts) ? null : cleaned;
}

/** A kept draft as the form shows it (the Tags field is text: tags separated by commas). */
interface FormDraft {
  title: string;
  content: string;
  category: string;
  tags: string;
  poll?: PollDraft;
  attachments?: Attachment[];
}

const tagsText = (tags: readonly string[] | undefined) => (tags ?? []).join(', ');

/** What saving an edit did, in the words of its toast: a rejected post goes back to review. */
function savedToast(status: EditablePost['status']) {
  if (status === 'rejected') return { title: 'Post resubmitted', description: 'Your edited post was sent back to an admin for review.' };
  if (status === 'pending') return { title: 'Changes saved', description: 'Your post is still pending approval from an admin.' };
  return { title: 'Changes saved', description: 'Your post has been updated.' };
}

/**
 * The New Post form: Title, Content (Write and Preview), Category (default Quantitative), Tags
 * (separated by commas, optional); the draft survives reloads. With `editing`, the same form edits the member's own post ("Edit Post",
 * Save Changes), filled with the post, or with their kept unsaved edit when there is one.
 */
export function NewPostModal({ email, show, onHide, editing = null }: NewPostModalProps) {
  const [title, setTitle] = useState(editing?.title ?? '');
  const [content, setContent] = useState(editing?.content ?? '');
  const [category, setCategory] = useState<string>(editing ? categoryOf(editing.category) : DEFAULT_CATEGORY);
  // The categories this member may post in (issue 61; the six until the admins change them), and the edited post's own.
  const categories = useLiveQuery(() => listPostableCategories(editing?.category), [editing?.category]) ?? DEFAULT_CATEGORIES;
  const [tags, setTags] = useState(tagsText(editing?.tags));
  const [poll, setPoll] = useState<PollDraft | null>(null);
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  const [keptEdit, setKeptEdit] = useState(false);
  const [busy, setBusy] = useState(false);
  const [invalid, setInvalid] = useState({ title: false, content: false, tags: false, poll: false });
  const showToast = useToast();
  const id = useId();
  const titleRef = useRef<HTMLInputElement>(null);
  const contentRef = useRef<HTMLTextAreaElement>(null);
  const tagsRef = useRef<HTMLInputElement>(null);
  const edited = useRef(false);
  const attach = useAttachFiles({ email, files: attachments, onChange: (files) => edit(setAttachments)(files) });
  const mentions = useMentions({ textarea: contentRef, value: content, onChange: (value) => edit(setContent)(value), email });

  // Bring back the saved draft when the modal opens, unless the member already typed (an edit:
  // the kept edit the server refused, if any). Each opening asks again; an answer that comes
  // after the modal closed is dropped.
  const editingId = editing?.id ?? null;
  const draftKey = `${email}:${editingId ?? 'new'}`;
  const saved = useAsyncValue<FormDraft | null>(
    show
      ? () =>
          editingId === null
            ? loadDraft(email).then((draft) => draft && { ...draft, tags: draft.tags ?? '' })
            : loadEditDraft(email, editingId).then(
                (draft) => draft && { title: draft.title, content: draft.content, category: draft.category, tags: tagsText(draft.tags) },
              )
      : undefined,
    {
      key: draftKey,
      fallback: null,
    },
  );
  useEffect(() => {
    const draft = saved?.key === draftKey ? saved.value : null;
    if (!draft || edited.current) return;
    setTitle(draft.title);
    setContent(draft.content);
    setCategory(categoryOf(draft.category));
    setTags(draft.tags);
    setPoll(draft.poll ?? null);
    setAttachments(draft.attachments ?? []);
    setKeptEdit(editingId !== null);
  }, [saved, draftKey, editingId]);

  // Save the draft shortly after each change; right away when the page is hidden or goes away,
  // when the modal unmounts (a sign-out in another tab), and right before an update reloads the app.
  // An edit keeps no draft of its own while typed (the New Post draft is not overwritten by it).
  const keepsDraft = editingId === null;
  const pollKept = poll ?? undefined;
  const latest = useRef({ email, title, content, category, tags, poll: pollKept, attachments });
  useEffect(() => {
    latest.current = { email, title, content, category, tags, poll: pollKept, attachments };
    if (!edited.current || !keepsDraft) return undefined;
    const timer = setTimeout(
      () => void saveDraft(email, { title, content, category, tags, poll: pollKept, attachments }).catch(() => undefined),
      300,
    );
    return () => clearTimeout(timer);
  }, [title, content, category, tags, pollKept, attachments, email, keepsDraft]);
  useEffect(() => {
    if (!keepsDraft) return undefined;
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
  }, [keepsDraft]);

  const edit =
    <T,>(setter: (value: T) => void) =>
    (value: T) => {
      edited.current = true;
      setter(value);
    };

  // A field marked at Submit loses its mark as soon as it is right (a trial: Tags stayed red once fixed).
  const bad = {
    title: (value: string) => !value.trim() || value.trim().length > LIMITS.title || hiddenText('Title', value, 'line') !== null,
    content: (value: string) => !value.trim() || value.trim().length > LIMITS.content,
    tags: (value: string) => validateTags(parseTags(value)) !== null,
  };
  const typed = (field: keyof typeof bad, setter: (value: string) => void) => (value: string) => {
    edit(setter)(value);
    if (invalid[field] && !bad[field](value)) setInvalid((marked) => ({ ...marked, [field]: false }));
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const tagList = parseTags(tags);
    const pollProblem = poll && !editing ? validatePoll(pollDefinition(poll), Date.now()) : null;
    const problem = validateNewPost(title, content) ?? validateTags(tagList) ?? pollProblem;
    if (problem) {
      const next = { title: bad.title(title), content: bad.content(content), tags: bad.tags(tags), poll: pollProblem !== null };
      setInvalid(next);
      // A hidden character cannot be seen to be removed: the toast offers to remove them all.
      const cleaned = withoutHiddenCharacters({ title, tags, poll });
      showToast({
        title: problem.title,
        description: problem.message,
        variant: 'error',
        ...(cleaned && {
          action: {
            label: 'Remove hidden characters',
            onClick: () => {
              edit(setTitle)(cleaned.title);
              edit(setTags)(cleaned.tags);
              if (cleaned.poll) edit(setPoll)(cleaned.poll);
              // Marked again, if need be, by the next Submit.
              setInvalid((marked) => ({ ...marked, title: false, tags: false, poll: false }));
              showToast({ title: 'Hidden characters removed', description: 'Check the text, then submit again.' });
            },
          },
        }),
      });
      if (next.title) titleRef.current?.focus();
      else if (next.content) focusWriting(contentRef.current);
      else if (next.tags) tagsRef.current?.focus();
      return;
    }
    setInvalid({ title: false, content: false, tags: false, poll: false });
    setBusy(true);
    try {
      if (editing) {
        // The data layer clears the kept edit once this one is saved.
        await editPost(editing.id, { title, content, category, tags: tagList });
        edited.current = false;
        setKeptEdit(false);
        onHide();
        showToast(savedToast(editing.status));
        return;
      }
      await createPost({
        title,
        content,
        category,
        tags: tagList,
        ...(poll ? { poll: pollDefinition(poll) } : {}),
        ...(attachments.length > 0 ? { attachments } : {}),
      });
      edited.current = false;
      await clearDraft(email).catch(() => undefined);
      setTitle('');
      setContent('');
      setCategory(DEFAULT_CATEGORY);
      setTags('');
      setPoll(null);
      setAttachments([]);
      onHide();
      showToast(submittedToast(getSyncStatus().state, navigator.onLine));
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
      scrollable
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
            {editing ? 'Edit Post' : 'New Post'}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body onDragOver={editing ? undefined : attach.onDragOver} onDrop={editing ? undefined : attach.onDrop}>
          {keptEdit && (
            <p className="alert alert-info py-2 small" role="note">
              This is your unsaved edit, kept on this device after it could not be saved. Save it again, or Cancel to leave the post as it
              is.
            </p>
          )}
          <Form.Group className="mb-3" controlId={`${id}-title`}>
            <Form.Label>Title</Form.Label>
            <Form.Control
              ref={titleRef}
              value={title}
              onChange={(event) => typed('title', setTitle)(event.target.value)}
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
            <WritePreview source={content}>
              <Form.Control
                ref={contentRef}
                as="textarea"
                rows={7}
                value={content}
                onChange={(event) => typed('content', setContent)(event.target.value)}
                onKeyDown={mentions.onKeyDown}
                onSelect={mentions.onSelect}
                onInput={mentions.onSelect}
                onPaste={editing ? undefined : attach.onPaste}
                placeholder="Share your insight, question or experience… Markdown works: **bold**, lists, tables, code."
                isInvalid={invalid.content || content.trim().length > LIMITS.content}
                aria-invalid={invalid.content || content.trim().length > LIMITS.content}
                aria-describedby={`${id}-content-count`}
                disabled={busy}
              />
              {mentions.list}
              <CharCounter id={`${id}-content-count`} length={content.trim().length} max={LIMITS.content} noun="Content" />
            </WritePreview>
          </Form.Group>
          <Form.Group controlId={`${id}-category`}>
            <Form.Label>Category</Form.Label>
            <Form.Select value={category} onChange={(event) => edit(setCategory)(event.target.value)} disabled={busy}>
              {categories.map((option) => (
                <option key={option.id} value={option.id}>
                  {option.name}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
          <Form.Group className="mt-3" controlId={`${id}-tags`}>
            <Form.Label>Tags</Form.Label>
            <Form.Control
              ref={tagsRef}
              value={tags}
              onChange={(event) => typed('tags', setTags)(event.target.value)}
              placeholder="MaxDiff, Pricing"
              isInvalid={invalid.tags}
              aria-invalid={invalid.tags}
              aria-describedby={`${id}-tags-help`}
              autoComplete="off"
              disabled={busy}
            />
            <Form.Text id={`${id}-tags-help`}>
              Optional. Up to {TAG_LIMITS.count}, separated by commas; each at most {TAG_LIMITS.length} characters. Members find them with
              tag: in search.
            </Form.Text>
          </Form.Group>
          {!editing && <AttachmentsEditor files={attachments} attach={attach} disabled={busy} />}
          {!editing &&
            (poll ? (
              <PollEditor
                draft={poll}
                onChange={edit(setPoll)}
                onRemove={() => edit(setPoll)(null)}
                disabled={busy}
                invalid={invalid.poll}
              />
            ) : (
              <Button variant="outline-secondary" size="sm" className="mt-3" onClick={() => edit(setPoll)(EMPTY_POLL)} disabled={busy}>
                Add poll
              </Button>
            ))}
          <p className="small text-body-secondary mt-3 mb-0">
            {editing
              ? editing.status === 'approved'
                ? 'Your post stays in the forum; it will show that it was edited.'
                : editing.status === 'rejected'
                  ? 'Saving sends your post back to an admin for review.'
                  : 'Your post is still waiting for an admin to review it.'
              : 'Posts are reviewed by an admin before they appear in the forum. Your draft is saved on this device as you type.'}
          </p>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onHide} disabled={busy}>
            Cancel
          </Button>
          {/* A file still being prepared is not yet part of the post: it waits for it. */}
          <Button type="submit" disabled={busy || attach.preparing.length > 0}>
            {busy && <Spinner className="me-2" />}
            {editing ? 'Save Changes' : 'Submit Post'}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
