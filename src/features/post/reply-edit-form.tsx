import { useId, useState, type FormEvent } from 'react';
import { CharCounter, nearLimit } from '../../components/char-counter';
import { Spinner } from '../../components/spinner';
import { WritePreview } from '../../components/markdown/write-preview';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { editReply } from '../../db/replies/replies';
import { LIMITS } from '../../shared/post-rules';
import type { Reply } from '../../db/types';

/** A reply's text in place, as a textarea "Edit reply" with Save and Cancel (Escape cancels too). */
export function ReplyEditForm({ reply, onDone }: { reply: Reply; onDone: () => void }) {
  const [text, setText] = useState(reply.content);
  const [busy, setBusy] = useState(false);
  const showToast = useToast();
  const id = useId();

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (text.trim() === reply.content) return onDone();
    setBusy(true);
    try {
      await editReply(reply.id, text);
      onDone();
    } catch (error) {
      showToast(errorToast(error));
      setBusy(false);
    }
  };

  return (
    <form className="app-reply-edit" onSubmit={(event) => void save(event)}>
      <label htmlFor={`${id}-text`} className="form-label small fw-semibold">
        Edit reply
      </label>
      <WritePreview source={text}>
        <textarea
          id={`${id}-text`}
          className={`form-control${text.trim().length > LIMITS.reply ? ' is-invalid' : ''}`}
          rows={4}
          value={text}
          autoFocus
          disabled={busy}
          aria-invalid={text.trim().length > LIMITS.reply || undefined}
          aria-describedby={nearLimit(text.trim().length, LIMITS.reply) ? `${id}-count` : undefined}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && !busy) onDone();
          }}
        />
        {nearLimit(text.trim().length, LIMITS.reply) && (
          <CharCounter id={`${id}-count`} length={text.trim().length} max={LIMITS.reply} noun="A reply" />
        )}
      </WritePreview>
      <div className="app-reply-edit-actions">
        <button type="submit" className="btn btn-primary btn-sm" disabled={busy || !text.trim()}>
          {busy && <Spinner className="me-1" />}
          Save
        </button>
        <button type="button" className="btn btn-outline-secondary btn-sm" disabled={busy} onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
