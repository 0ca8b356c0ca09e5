import { useEffect, useId, useState, type FormEvent } from 'react';
import '../../components/poll.scss';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { ConfirmDialog } from '../../components/confirm/confirm-dialog';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { closePoll, pollResultsFile, vote } from '../../db/polls/polls';
import type { Session } from '../../db/types';
import { saveFile } from '../../lib/download';
import { ballotOf, isPollClosed, percentages, validateBallot, type Poll } from '../../shared/polls';
import { mayDeletePost, type Post } from '../../shared/post-rules';
import { formatDay } from '../../shared/dates';

const plural = (count: number, noun: string) => `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;

/** What the poll's footer says of its state: who voted, and when it closes or closed. */
function pollStatus(poll: Poll, closed: boolean, open: boolean): string {
  const voters = plural(poll.voters, 'voter');
  if (!open) return 'Voting opens once the post is approved.';
  if (closed) return `${voters} · Closed`;
  return poll.closesAt === null ? voters : `${voters} · Closes on ${formatDay(poll.closesAt)}`;
}

/** The results: each option with its votes and share of the voters, the member's own choice marked. */
function PollResults({ poll, mine }: { poll: Poll; mine: readonly number[] | null }) {
  const shares = percentages(poll);
  return (
    <ul className="list-unstyled mb-2 app-poll-results" aria-label="Results">
      {poll.options.map((option, index) => (
        <li key={index} className="mb-2">
          <div className="d-flex justify-content-between gap-2">
            <span className="app-poll-option">
              {option}
              {mine?.includes(index) && <span className="badge text-bg-primary ms-2">Your vote</span>}
            </span>
            <span className="text-nowrap text-body-secondary">
              {plural(poll.counts[index] ?? 0, 'vote')} · {shares[index]}%
            </span>
          </div>
          <div className="progress app-poll-bar" aria-hidden="true">
            <div className="progress-bar" style={{ width: `${shares[index]}%` }} />
          </div>
        </li>
      ))}
    </ul>
  );
}

/**
 * A post's poll: a group named by its question. Before the member votes (or while they change their
 * vote) radio buttons or checkboxes named by the options and "Vote"; after, or once closed, each
 * option's count and percentage. Its author and admins have "Close poll" and "Download results".
 * A poll of a post not on the forum yet takes no vote.
 */
export function PollView({ post, poll, viewer }: { post: Post; poll: Poll; viewer: Session }) {
  const id = useId();
  const showToast = useToast();
  const mine = ballotOf(poll, viewer.email);
  const [changing, setChanging] = useState(false);
  const [choices, setChoices] = useState<number[]>(mine ?? []);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  // The time the poll is judged at: now, and again when its closing time comes while the page is open.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (poll.closesAt === null || poll.closesAt <= now || poll.closesAt - now > 2 ** 31 - 1) return undefined;
    const timer = setTimeout(() => setNow(Date.now()), poll.closesAt - now + 1);
    return () => clearTimeout(timer);
  }, [poll.closesAt, now]);
  const open = post.status === 'approved';
  const closed = isPollClosed(poll, now);
  const voting = open && !closed && (mine === null || changing);
  const manages = mayDeletePost(post, viewer);

  const choose = (index: number, on: boolean) =>
    setChoices((current) =>
      poll.multiple ? (on ? [...current, index].sort((a, b) => a - b) : current.filter((c) => c !== index)) : [index],
    );

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = validateBallot(poll, choices);
    if (problem) {
      showToast({ title: problem.title, description: problem.message, variant: 'error' });
      return;
    }
    setBusy(true);
    try {
      await vote(post.id, choices);
      setChanging(false);
    } catch (error) {
      showToast(errorToast(error));
    } finally {
      setBusy(false);
    }
  };
  const close = async (): Promise<boolean> => {
    try {
      await closePoll(post.id);
      showToast({ title: 'Poll closed', description: 'The poll takes no more votes; its results stay.' });
      return true;
    } catch (error) {
      showToast(errorToast(error));
      return false;
    }
  };
  const download = () => {
    const file = pollResultsFile(post.id, poll);
    saveFile(new Blob([file.text], { type: 'text/csv;charset=utf-8' }), file.name);
  };

  const legendId = `${id}-question`;
  return (
    <Form onSubmit={submit} className="app-poll mt-3" noValidate>
      <fieldset className="app-poll-box" aria-labelledby={legendId}>
        <legend id={legendId}>{poll.question}</legend>
        {voting ? (
          <div className="mb-2">
            {poll.options.map((option, index) => (
              <Form.Check
                key={index}
                id={`${id}-option-${index}`}
                type={poll.multiple ? 'checkbox' : 'radio'}
                name={`${id}-choice`}
                label={option}
                checked={choices.includes(index)}
                onChange={(event) => choose(index, event.target.checked)}
                disabled={busy}
                className="mb-2 app-poll-option"
              />
            ))}
            {poll.multiple && <Form.Text className="d-block mb-2">You can choose several answers.</Form.Text>}
          </div>
        ) : (
          <PollResults poll={poll} mine={mine} />
        )}
        <div className="d-flex flex-wrap align-items-center gap-2">
          {voting && (
            <Button type="submit" size="sm" disabled={busy}>
              Vote
            </Button>
          )}
          {voting && changing && (
            <Button variant="outline-secondary" size="sm" onClick={() => setChanging(false)} disabled={busy}>
              Cancel
            </Button>
          )}
          {!voting && open && !closed && mine !== null && (
            <Button
              variant="outline-secondary"
              size="sm"
              onClick={() => {
                setChoices(mine);
                setChanging(true);
              }}
            >
              Change vote
            </Button>
          )}
          {manages && open && !closed && (
            <Button variant="outline-danger" size="sm" onClick={() => setConfirming(true)} disabled={busy}>
              Close poll
            </Button>
          )}
          {manages && (
            <Button variant="link" size="sm" className="px-1" onClick={download}>
              Download results
            </Button>
          )}
          <span className="small text-body-secondary ms-auto">{pollStatus(poll, closed, open)}</span>
        </div>
      </fieldset>
      <ConfirmDialog
        title="Close poll?"
        confirmLabel="Close poll"
        show={confirming}
        onConfirm={close}
        onHide={() => setConfirming(false)}
        onExited={() => undefined}
      >
        Nobody can vote or change their vote once the poll is closed. Its results stay on the post.
      </ConfirmDialog>
    </Form>
  );
}
