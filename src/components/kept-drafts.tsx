import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { dropKeptDraft, KEPT_DRAFT_SENTENCE, readKeptDrafts, type KeptDraft } from '../db/groups/kept-drafts';
import { copyText } from '../lib/share';

/** One kept reply: read-only (it can no longer be sent), with Copy, and Dismiss once copied. */
function KeptDraftItem({ email, draft }: { email: string; draft: KeptDraft }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const label = `kept-draft-${draft.id}`;
  return (
    <li className="mb-3">
      <label htmlFor={label} className="visually-hidden">
        Your reply
      </label>
      <textarea id={label} className="form-control mb-2" readOnly rows={3} value={draft.content} />
      <div className="d-flex gap-2 align-items-center">
        <button type="button" className="btn btn-sm btn-primary" onClick={() => void copyText(draft.content).then(setCopied)}>
          Copy
        </button>
        <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => void dropKeptDraft(email, draft.id)}>
          Dismiss
        </button>
        <span role="status" className="small">
          {copied === true ? 'Copied.' : copied === false ? 'Select the text and copy it.' : ''}
        </span>
      </div>
    </li>
  );
}

/**
 * Kept drafts, on the forum (where a member lands) and on the page of a post they lost: the replies they wrote to a conversation they
 * may no longer see (they left its group, or its category became private to others), which could
 * not be sent. Nothing is shown while there are none.
 */
export function KeptDrafts({ email, postId }: { email: string; postId?: number }) {
  const all = useLiveQuery(() => (email ? readKeptDrafts(email) : []), [email]);
  // On a lost post's page: the replies written to it alone.
  const drafts = postId === undefined ? all : all?.filter((draft) => draft.postId === postId);
  if (!drafts || drafts.length === 0) return null;
  return (
    <section className="alert alert-warning app-kept-drafts" aria-labelledby="kept-drafts-title">
      <h2 id="kept-drafts-title" className="h6">
        Kept drafts
      </h2>
      <p>{KEPT_DRAFT_SENTENCE}</p>
      <ul className="list-unstyled mb-0">
        {drafts.map((draft) => (
          <KeptDraftItem key={draft.id} email={email} draft={draft} />
        ))}
      </ul>
    </section>
  );
}
