import { useEffect, useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import Button from 'react-bootstrap/Button';
import { IconBan, IconChevronDown, IconChevronUp, IconTrash, IconVolume, IconVolumeOff } from '@tabler/icons-react';
import { AdminBadge } from '../../components/author-name';
import { ConfirmDialog } from '../../components/confirm/confirm-dialog';
import { PageLoading } from '../../components/page-loading';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { paths } from '../../config/paths';
import { deleteSpammer, liftSuspension, silenceMember } from '../../db/moderation/members';
import { useAsyncValue } from '../../hooks/use-async-value';
import { DISPLAY_CHARS, clip, formatFullDate, plural } from '../../lib/format';
import { FLAG_REASON_LABELS, type FlagReason } from '../../shared/moderation';
import type { AdminMember, AdminMemberDetail } from '../../shared/protocol';
import { readMember } from '../../sync/admin';
import { SuspendDialog } from './suspend-dialog';
import { SilenceDialog } from './silence-dialog';

/** What the staff decided of a member, as badges. */
function MemberState({ member }: { member: AdminMember }) {
  const suspended = member.suspended;
  return (
    <>
      {member.role === 'admin' && <AdminBadge />}
      {member.closed && <span className="badge text-bg-dark">Closed</span>}
      {suspended && <span className="badge text-bg-danger">Suspended until {formatFullDate(member.suspendedUntil!)}</span>}
      {member.silenced && !member.closed && (
        <span className="badge text-bg-warning">
          {member.silencedUntil === null ? 'Silenced' : `Silenced until ${formatFullDate(member.silencedUntil)}`}
        </span>
      )}
    </>
  );
}

/** One list of a member's detail (posts, replies, flags), or "None.". */
function DetailList<T>({ title, items, children }: { title: string; items: T[]; children: (item: T) => ReactNode }) {
  return (
    <section>
      <h4 className="h6">{title}</h4>
      {items.length === 0 ? <p className="small text-body-secondary">None.</p> : <ul className="small">{items.map(children)}</ul>}
    </section>
  );
}

/** A member's recent posts, replies and the flags they raised (read from the server when opened). */
function MemberDetail({ id, refresh }: { id: string; refresh: number }) {
  const answer = useAsyncValue<AdminMemberDetail | Error>(
    () => readMember(id).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))),
    { key: id, refresh },
  );
  const detail = answer?.value;
  if (!detail) return <PageLoading label="Loading the member..." />;
  if (detail instanceof Error)
    return (
      <p role="alert" className="text-danger mb-0">
        {detail.message}
      </p>
    );
  return (
    <div className="app-member-detail">
      <DetailList title="Posts" items={detail.posts}>
        {(post) => (
          <li key={post.id}>
            <Link to={paths.post(post.id)}>{clip(post.title, DISPLAY_CHARS.title)}</Link>{' '}
            <span className="text-body-secondary">({post.status})</span>
          </li>
        )}
      </DetailList>
      <DetailList title="Replies" items={detail.replies}>
        {(reply) => (
          <li key={reply.id}>
            <Link to={paths.reply(reply.postId, reply.id)}>{clip(reply.excerpt, 120) || '(empty)'}</Link>{' '}
            <span className="text-body-secondary">
              on “{clip(reply.postTitle, 60)}”{reply.state === 'hidden' ? ', hidden' : ''}
            </span>
          </li>
        )}
      </DetailList>
      <DetailList title="Flags raised" items={detail.flags}>
        {(flag) => (
          <li key={flag.id}>
            <Link to={flag.replyId ? paths.reply(flag.postId, flag.replyId) : paths.post(flag.postId)}>
              {FLAG_REASON_LABELS[flag.reason as FlagReason] ?? flag.reason}
            </Link>{' '}
            <span className="text-body-secondary">
              ({flag.state}){flag.text ? `: ${clip(flag.text, 80)}` : ''}
            </span>
          </li>
        )}
      </DetailList>
    </div>
  );
}

/** One member of the Members tab: who they are, what the staff decided, and Suspend, Silence, Delete spammer. */
export function MemberCard({ member, refresh }: { member: AdminMember; refresh: number }) {
  const id = useId();
  const showToast = useToast();
  const [open, setOpen] = useState(false);
  const [suspending, setSuspending] = useState<{ show: boolean } | null>(null);
  const [deleting, setDeleting] = useState<{ show: boolean } | null>(null);
  const [silencing, setSilencing] = useState<{ show: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  // The buttons are off while one runs, which takes the focus off the one pressed: it gets it back
  // once they are on again (Unsilence becomes Silence in the same place), unless it went elsewhere meanwhile.
  const [pressed, setPressed] = useState<HTMLElement | null>(null);
  useEffect(() => {
    if (busy || !pressed) return;
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (lost && pressed.isConnected) pressed.focus();
  }, [busy, pressed]);
  const staff = member.role === 'admin';
  const suspended = member.suspended;
  const headingId = `${id}-name`;

  const act = async (action: () => Promise<void>, title: string, description: string) => {
    setBusy(true);
    try {
      await action();
      showToast({ title, description });
    } catch (error) {
      showToast(errorToast(error));
    } finally {
      setBusy(false);
    }
  };

  /** A reset link for the member (the way back when no SMTP is configured): copied, or emailed too. */
  const resetLink = async (send: boolean) => {
    setBusy(true);
    try {
      const { url } = await (await import('../../sync/account')).memberResetLink(member.id, send);
      if (send) showToast({ title: 'Reset link sent', description: `${member.name} will receive a link that works once, for 30 minutes.` });
      else {
        const copied = await navigator.clipboard?.writeText(url).then(
          () => true,
          () => false,
        );
        showToast({
          title: copied ? 'Reset link copied' : 'Reset link',
          description: copied
            ? `Give it to ${member.name}: it works once, for 30 minutes.`
            : `Give ${member.name} this link (once, 30 minutes): ${url}`,
        });
      }
    } catch (error) {
      showToast(errorToast(error));
    } finally {
      setBusy(false);
    }
  };

  /** One of the card's buttons: small, described by the member's name, off while one runs. */
  const button = (variant: string, onClick: () => void, label: ReactNode) => (
    <Button
      variant={variant}
      size="sm"
      disabled={busy}
      aria-describedby={headingId}
      onClick={(event) => {
        setPressed(event.currentTarget);
        onClick();
      }}
    >
      {label}
    </Button>
  );

  return (
    <article className="card app-member-row" aria-labelledby={headingId}>
      <div className="card-body">
        <div className="app-member-head">
          <h3 id={headingId} className="h6 mb-0">
            {clip(member.name, DISPLAY_CHARS.author)}
          </h3>
          <MemberState member={member} />
        </div>
        <p className="small text-body-secondary mb-1 app-break">{member.email}</p>
        <p className="small mb-2">
          {plural(member.posts, 'post')} · {plural(member.replies, 'reply', 'replies')} · {plural(member.flagsRaised, 'flag')} raised
          {member.joinedAt !== null && ` · joined ${formatFullDate(member.joinedAt)}`}
        </p>
        {suspended && member.suspendReason && <p className="small mb-2">Reason: {member.suspendReason}</p>}
        {member.silenced && !suspended && member.silenceReason && <p className="small mb-2">Silenced for: {member.silenceReason}</p>}
        {open && <MemberDetail id={member.id} refresh={refresh} />}
      </div>
      <div className="card-footer app-member-actions">
        <Button variant="link" size="sm" className="px-0" aria-expanded={open} aria-describedby={headingId} onClick={() => setOpen(!open)}>
          {open ? <IconChevronUp aria-hidden="true" size={16} /> : <IconChevronDown aria-hidden="true" size={16} />} Posts, replies and
          flags
        </Button>
        {staff ? (
          <span className="small text-body-secondary">Staff account</span>
        ) : member.closed ? (
          <span className="small text-body-secondary">Account closed</span>
        ) : (
          <div className="app-member-buttons">
            {suspended
              ? button(
                  'outline-secondary',
                  () => void act(() => liftSuspension(member.id), 'Suspension lifted', `${member.name} can sign in again.`),
                  'Lift suspension',
                )
              : button(
                  'outline-danger',
                  () => setSuspending({ show: true }),
                  <>
                    <IconBan aria-hidden="true" size={16} /> Suspend
                  </>,
                )}
            {button(
              'outline-warning',
              () =>
                member.silenced
                  ? void act(() => silenceMember(member.id, false), 'Member can write again', `${member.name} can post and reply again.`)
                  : setSilencing({ show: true }),
              <>
                {member.silenced ? <IconVolume aria-hidden="true" size={16} /> : <IconVolumeOff aria-hidden="true" size={16} />}{' '}
                {member.silenced ? 'Unsilence' : 'Silence'}
              </>,
            )}
            {button(
              'danger',
              () => setDeleting({ show: true }),
              <>
                <IconTrash aria-hidden="true" size={16} /> Delete spammer
              </>,
            )}
            {/* A sample post's author has no account anyone signs in to: no reset link to make. */}
            {member.joinedAt !== null && button('outline-secondary', () => void resetLink(false), 'Copy reset link')}
            {member.joinedAt !== null && button('outline-secondary', () => void resetLink(true), 'Email reset link')}
          </div>
        )}
      </div>
      {suspending && (
        <SuspendDialog
          member={member}
          show={suspending.show}
          onHide={() => setSuspending({ show: false })}
          onExited={() => setSuspending(null)}
        />
      )}
      {silencing && (
        <SilenceDialog
          member={member}
          show={silencing.show}
          onHide={() => setSilencing({ show: false })}
          onExited={() => setSilencing(null)}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title="Delete spammer?"
          confirmLabel="Delete spammer"
          show={deleting.show}
          onHide={() => setDeleting({ show: false })}
          onExited={() => setDeleting(null)}
          onConfirm={async () => {
            try {
              await deleteSpammer(member.id);
              showToast({
                title: 'Spammer deleted',
                description: `Everything ${member.name} wrote leaves the forum, and the account is closed.`,
              });
              return true;
            } catch (error) {
              showToast(errorToast(error));
              return false;
            }
          }}
        >
          Every post and reply by <strong>{member.name}</strong> leaves the forum on every device, and the account is closed. This cannot be
          undone.
        </ConfirmDialog>
      )}
    </article>
  );
}
