import { useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { useMentions } from '../../components/mentions';
import { useLiveQuery } from 'dexie-react-hooks';
import { CharCounter, nearLimit } from '../../components/char-counter';
import { Spinner } from '../../components/spinner';
import { WritePreview } from '../../components/markdown/write-preview';
import { useToast, useWithdrawToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { createReply, loadReplyDraft, saveReplyDraft } from '../../db/replies/replies';
import { DISPLAY_CHARS, clip } from '../../lib/format';
import { excerptText } from '../../lib/plain-text';
import { LIMITS } from '../../shared/post-rules';
import { validateReply } from '../../shared/text-checks';
import type { Reply } from '../../db/types';
import { AttachmentsEditor, useAttachFiles } from '../../components/attachments/attachments-editor';
import type { Attachment } from '../../shared/attachments';

/** The draft is saved once typing pauses this long. */
const DRAFT_DELAY_MS = 400;

interface ReplyBoxProps {
  postId: number;
  email: string;
  /** The reply being quoted, or null. */
  quote: Reply | null;
  /** Removes the quote: any (Remove quote), or only `sent` when it is still the one shown (a reply went with it). */
  onRemoveQuote: (sent?: Reply) => void;
  /** The reply was written: show it. */
  onPosted: (reply: Reply) => void;
  textarea: RefObject<HTMLTextAreaElement | null>;
}

/** Whose toasts the reply box takes back (toast-provider.tsx: withdraw). */
const REPLY_TOASTS = 'reply-box';

/**
 * "Your reply" and Post Reply. The text is kept as the member's draft for this post while they
 * type, and comes back when the page opens again; a reply the server refused comes back the same
 * way (the data layer makes it the draft), into a box that holds nothing unsaved.
 */
export function ReplyBox({ postId, email, quote, onRemoveQuote, onPosted, textarea }: ReplyBoxProps) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  // Files attached to this reply (kept on the device; not part of the text draft).
  const [files, setFiles] = useState<Attachment[]>([]);
  const attach = useAttachFiles({ email, files, onChange: setFiles });
  const mentions = useMentions({ textarea, value: text, onChange: setText, email });
  const showToast = useToast();
  const withdrawToast = useWithdrawToast();
  const id = useId();
  // What storage holds as far as this box knows, and what the box holds (for effects).
  const saved = useRef('');
  const typed = useRef('');
  useEffect(() => {
    typed.current = text;
  }, [text]);

  // A stored draft (on opening, or a refused reply handed back) fills a box holding nothing unsaved.
  const draft = useLiveQuery(() => loadReplyDraft(email, postId).catch(() => ''), [email, postId]);
  useEffect(() => {
    if (draft === undefined || draft === saved.current || typed.current !== saved.current) return;
    saved.current = draft;
    setText(draft);
  }, [draft]);

  // Saved once typing pauses, and at once when the page goes (what was typed last is kept too).
  useEffect(() => {
    if (text === saved.current) return undefined;
    const timer = setTimeout(() => {
      saved.current = text;
      saveReplyDraft(email, postId, text).catch(() => undefined);
    }, DRAFT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, email, postId]);
  useEffect(
    () => () => {
      if (typed.current !== saved.current) saveReplyDraft(email, postId, typed.current).catch(() => undefined);
    },
    [email, postId],
  );

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || !text.trim()) return;
    // Refused here in the data layer's words (too long, a hidden character): the box keeps every word.
    const refused = validateReply(text);
    if (refused) {
      showToast({ title: refused.title, description: refused.message, variant: 'error', from: REPLY_TOASTS });
      textarea.current?.focus();
      return;
    }
    // Its refusal, still up, is answered by this send (a trial: "too long" stayed over the sent reply).
    withdrawToast(REPLY_TOASTS);
    setBusy(true);
    // Post Reply (the form's one way to be sent) pressed from the keyboard: a click's detail is 0 then;
    // a tap or a click is not (Safari does not focus a tapped button, so the focus cannot tell).
    refocus.current = pressedWith.current === 0;
    pressedWith.current = null;
    try {
      const [sentText, sentQuote] = [text, quote];
      const reply = await createReply(postId, sentText, sentQuote?.id ?? null, files);
      saved.current = '';
      // The reply shows in the thread before its sending ends: a quote started or words typed
      // meanwhile belong to the next reply, so only what was sent is cleared.
      setText((current) => (current === sentText ? '' : current));
      setFiles([]);
      await saveReplyDraft(email, postId, '').catch(() => undefined);
      if (sentQuote) onRemoveQuote(sentQuote);
      onPosted(reply);
      setSentAt((count) => count + 1);
    } catch (error) {
      // The text stays in the box (and in the draft): nothing typed is lost.
      showToast({ ...errorToast(error), from: REPLY_TOASTS });
    } finally {
      setBusy(false);
    }
  };

  // Once a reply is sent from the keyboard, the focus goes back to Your reply (it was on Post Reply,
  // which turns off with the box empty, or in the box, off while sending: it fell to the page), unless
  // it moved elsewhere. Not after a tap: on a phone that would raise the keyboard again.
  const form = useRef<HTMLFormElement>(null);
  const [sentAt, setSentAt] = useState(0);
  const refocus = useRef(false);
  // How Post Reply was last pressed: the click's detail (0 from the keyboard), null when it was not.
  const pressedWith = useRef<number | null>(null);
  useEffect(() => {
    if (sentAt === 0 || busy || !refocus.current) return;
    refocus.current = false;
    const active = document.activeElement;
    if (!active || active === document.body || form.current?.contains(active)) textarea.current?.focus();
  }, [sentAt, busy, textarea]);

  const counted = nearLimit(text.trim().length, LIMITS.reply);
  return (
    <form
      ref={form}
      className="card app-reply-box"
      onSubmit={(event) => void submit(event)}
      onDragOver={attach.onDragOver}
      onDrop={attach.onDrop}
    >
      <div className="card-body">
        <label htmlFor={`${id}-text`} className="form-label fw-semibold">
          Your reply
        </label>
        {quote && (
          <div className="app-quoting">
            <div className="app-quoting-text">
              <span className="fw-semibold">Quoting {clip(quote.author, DISPLAY_CHARS.author)}</span>
              <span className="app-clamp-2">{clip(excerptText(quote.content), 300)}</span>
            </div>
            <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => onRemoveQuote()}>
              Remove quote
            </button>
          </div>
        )}
        <WritePreview source={text}>
          <textarea
            ref={textarea}
            id={`${id}-text`}
            className={`form-control${text.trim().length > LIMITS.reply ? ' is-invalid' : ''}`}
            rows={4}
            value={text}
            placeholder="Add to the conversation… Markdown works."
            disabled={busy}
            aria-invalid={text.trim().length > LIMITS.reply || undefined}
            aria-describedby={counted ? `${id}-count` : undefined}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={mentions.onKeyDown}
            onSelect={mentions.onSelect}
            onInput={mentions.onSelect}
            onPaste={attach.onPaste}
          />
          {mentions.list}
          {counted && <CharCounter id={`${id}-count`} length={text.trim().length} max={LIMITS.reply} noun="A reply" />}
        </WritePreview>
        <AttachmentsEditor files={files} attach={attach} disabled={busy} compact />
        <div className="app-reply-box-actions">
          <span className="small text-body-secondary">Your draft is kept on this device.</span>
          <button
            type="submit"
            className="btn btn-primary"
            disabled={busy || !text.trim() || attach.preparing.length > 0}
            onClick={(event) => (pressedWith.current = event.detail)}
          >
            {busy && <Spinner className="me-2" />}
            Post Reply
          </button>
        </div>
      </div>
    </form>
  );
}
