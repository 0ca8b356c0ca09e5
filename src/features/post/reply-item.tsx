import { useEffect, useRef, useState } from 'react';
import { NewBadge } from '../../components/new-badge';
import { UnsentBadge } from '../../components/unsent-badge';
import { authorKey } from '../../shared/members';
import { AuthorName } from '../../components/author-name';
import { Avatar } from '../../components/avatar';
import { Markdown } from '../../components/markdown/markdown';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { hideReply, restoreReply } from '../../db/replies/replies';
import { DISPLAY_CHARS, clip, formatFullDate } from '../../lib/format';
import { Age } from '../../components/age';
import { LIMITS, mayDeleteReply } from '../../shared/post-rules';
import { flagRefusal } from '../../shared/moderation';
import { FlagButton } from './flag-button';
import type { Post, Reply, Session } from '../../db/types';
import { hiddenFrom } from '../../shared/visibility';
import { HIDDEN } from './hidden';
import { ReplyEditForm } from './reply-edit-form';
import { ReplyQuote } from './reply-quote';
import { AttachmentList } from '../../components/attachments/attachment-list';

interface ReplyItemProps {
  reply: Reply;
  /** The post it answers (what a flag of it needs to know). */
  post: Pick<Post, 'id' | 'status' | 'authorEmail'>;
  viewer: Session;
  /** The reply this one quotes, as it is now (undefined: none, or not on this device). */
  quoted: Reply | undefined;
  /** Briefly marked: the reply a link or a new post led to. */
  highlighted: boolean;
  onQuote: (reply: Reply) => void;
  onDelete: (reply: Reply) => void;
  /** Arrived since the member's last visit (marked "New"). */
  isNew?: boolean;
  /** Written (or changed) on this device and not sent yet: marked "Not sent yet" (issue 40). */
  unsent?: boolean;
}

/**
 * One reply: author, time, "edited", its Markdown (or "Hidden by a moderator" for members), the
 * reply it quotes, and its buttons: Quote; Edit for its author; Delete for its author and admins;
 * Hide or Restore for admins.
 */
export function ReplyItem({ reply, post, viewer, quoted, highlighted, onQuote, onDelete, isNew = false, unsent = false }: ReplyItemProps) {
  const [editingAsked, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const showToast = useToast();
  const isAdmin = viewer.role === 'admin';
  const mine = reply.authorEmail === viewer.email;
  const mayDelete = mayDeleteReply(reply, viewer);
  const hidden = reply.state === 'hidden';
  const shown = !hiddenFrom(reply, viewer);
  // A reply hidden (or gone) while its author edits it leaves edit mode.
  const editing = editingAsked && reply.state === 'visible';
  const hasActions = !hidden || mayDelete || isAdmin;
  const author = clip(reply.author, DISPLAY_CHARS.author);
  const authorId = `reply-${reply.id}-author`;

  const moderate = (action: (id: string) => Promise<void>) => {
    action(reply.id).catch((error: unknown) => showToast(errorToast(error)));
  };
  // Leaving edit mode puts focus back on Edit (once the button is there again).
  const refocus = useRef(false);
  const stopEditing = () => {
    refocus.current = true;
    setEditing(false);
  };
  useEffect(() => {
    if (editing || !refocus.current) return;
    refocus.current = false;
    editButton.current?.focus();
  }, [editing]);

  const actions = (
    <>
      {!hidden && (
        <button type="button" className="btn btn-sm app-reply-action" aria-describedby={authorId} onClick={() => onQuote(reply)}>
          Quote
        </button>
      )}
      {mine && !hidden && (
        <button
          ref={editButton}
          type="button"
          className="btn btn-sm app-reply-action"
          aria-describedby={authorId}
          onClick={() => setEditing(true)}
        >
          Edit
        </button>
      )}
      {mayDelete && (
        <button type="button" className="btn btn-sm app-reply-action" aria-describedby={authorId} onClick={() => onDelete(reply)}>
          Delete
        </button>
      )}
      {flagRefusal(post, reply, viewer) === null && (
        <FlagButton
          target={{ postId: post.id, replyId: reply.id }}
          what="reply"
          className="btn btn-sm app-reply-action app-flag-button"
          describedBy={authorId}
        />
      )}
      {isAdmin && (
        <button
          type="button"
          className="btn btn-sm app-reply-action app-reply-moderate"
          aria-describedby={authorId}
          onClick={() => moderate(hidden ? restoreReply : hideReply)}
        >
          {hidden ? 'Restore' : 'Hide'}
        </button>
      )}
    </>
  );

  return (
    <li
      id={`reply-${reply.id}`}
      data-reply-id={reply.id}
      tabIndex={-1}
      className={`app-reply${hidden ? ' is-hidden' : ''}${highlighted ? ' is-target' : ''}`}
    >
      <div className="app-reply-head">
        <Avatar name={author} seed={authorKey(reply) || undefined} size={32} />
        <div className="app-reply-byline">
          <AuthorName item={reply} id={authorId} className="app-reply-author" />
          <Age at={reply.createdAt} className="app-reply-time" />
          {reply.editedAt !== null && (
            <span className="app-reply-edited" title={`Edited ${formatFullDate(reply.editedAt)}`}>
              edited
            </span>
          )}
          {hidden && isAdmin && <span className="badge text-bg-secondary">Hidden</span>}
          {isNew && <NewBadge />}
          {unsent && <UnsentBadge />}
        </div>
      </div>
      {!shown ? (
        <p className="app-reply-hidden">{HIDDEN}</p>
      ) : (
        <>
          {reply.quoteId && <ReplyQuote postId={post.id} quoteId={reply.quoteId} quoted={quoted} viewer={viewer} />}
          {editing ? (
            <ReplyEditForm reply={reply} onDone={stopEditing} />
          ) : (
            <Markdown className="app-reply-text" source={clip(reply.content, LIMITS.reply)} />
          )}
          {reply.attachments && reply.attachments.length > 0 && <AttachmentList files={reply.attachments} />}
        </>
      )}
      {!editing && hasActions && <div className="app-reply-actions">{actions}</div>}
    </li>
  );
}
