import { useEffect, useId, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { PageLoading } from '../../components/page-loading';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import type { LimitRuleShape, LimitsAnswer } from '../../sync/api';
import { readLimits, setLimit } from '../../sync/admin';

/** Each limit as the admin reads it. */
const LABELS: Record<string, string> = {
  posts_per_day: 'New posts',
  seconds_between_posts: 'Between two new posts',
  replies_per_day: 'Replies',
  seconds_between_replies: 'Between two replies',
  likes_per_day: 'Likes',
  flags_per_day: 'Flags',
  votes_per_day: 'Poll votes',
  attachments_per_day: 'Attachments',
  download_megabytes_per_hour: 'Attachment downloads (MB)',
  edits_per_day: 'Edits',
  searches_per_minute: 'Searches',
  pages_per_minute: 'Pages of the forum read from the server',
  pushes_per_10_seconds: 'Sync requests',
  operations_per_minute: 'Changes synced',
  signups_per_hour: 'New accounts from one address',
  renames_per_day: 'Name changes',
};

/** "3 per day", "1 per 2 minutes". */
function per(count: number, seconds: number): string {
  const window =
    seconds % 86_400 === 0
      ? `${seconds / 86_400 === 1 ? 'day' : `${seconds / 86_400} days`}`
      : seconds % 3600 === 0
        ? `${seconds / 3600 === 1 ? 'hour' : `${seconds / 3600} hours`}`
        : seconds % 60 === 0
          ? `${seconds / 60 === 1 ? 'minute' : `${seconds / 60} minutes`}`
          : `${seconds} seconds`;
  return `${count.toLocaleString('en-US')} per ${window}`;
}

/** One limit: what it is now, and its four numbers to change. */
function LimitRow({ name, rule, onSaved }: { name: string; rule: LimitRuleShape; onSaved: (answer: LimitsAnswer) => void }) {
  const id = useId();
  const showToast = useToast();
  const [draft, setDraft] = useState(rule);
  const [busy, setBusy] = useState(false);
  const label = LABELS[name] ?? name;
  const field = (key: keyof LimitRuleShape, text: string, min: number) => (
    <Form.Group controlId={`${id}-${key}`} className="app-limit-field">
      <Form.Label className="small mb-0">{text}</Form.Label>
      <Form.Control
        type="number"
        size="sm"
        min={min}
        required
        value={draft[key]}
        onChange={(event) => setDraft({ ...draft, [key]: Number(event.target.value) })}
        disabled={busy}
      />
    </Form.Group>
  );
  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      onSaved(await setLimit(name, draft));
      showToast({
        title: 'Limit saved',
        description: `${label}: ${per(draft.count, draft.seconds)}; in a member’s first day ${per(draft.firstDayCount, draft.firstDaySeconds)}.`,
      });
    } catch (error) {
      showToast(errorToast(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="app-limit" aria-label={label} onSubmit={(event) => void save(event)}>
      <h4 className="h6 mb-1">{label}</h4>
      <p className="small text-body-secondary mb-2">
        {per(rule.count, rule.seconds)}; first day {per(rule.firstDayCount, rule.firstDaySeconds)}
      </p>
      <div className="app-limit-fields">
        {field('count', 'Count', 0)}
        {field('seconds', 'Per seconds', 1)}
        {field('firstDayCount', 'First day count', 0)}
        {field('firstDaySeconds', 'First day per seconds', 1)}
        <Button type="submit" size="sm" variant="outline-primary" disabled={busy}>
          Save
        </Button>
      </div>
    </form>
  );
}

/** The member limits (admins are exempt), each editable: read from the server, saved there (and in the staff log). */
export function LimitsPanel() {
  const [answer, setAnswer] = useState<LimitsAnswer | Error | undefined>(undefined);
  useEffect(() => {
    let live = true;
    readLimits().then(
      (limits) => live && setAnswer(limits),
      (error: unknown) => live && setAnswer(error instanceof Error ? error : new Error(String(error))),
    );
    return () => {
      live = false;
    };
  }, []);
  return (
    <section className="mt-4" aria-labelledby="limits-title">
      <h3 id="limits-title" className="h5">
        Member limits
      </h3>
      <p className="small text-body-secondary">
        How often a member may act, stricter in their first day; admins are exempt. Over a limit, a member is told to slow down, and what
        they wrote is kept and sent when allowed.
      </p>
      {answer === undefined ? (
        <PageLoading label="Loading the limits..." />
      ) : answer instanceof Error ? (
        <p role="alert" className="text-danger">
          {answer.message}
        </p>
      ) : (
        <div className="app-limits">
          {Object.entries(answer.limits).map(([name, rule]) => (
            // Keyed by what it holds: a saved limit starts a fresh draft of its new numbers.
            <LimitRow key={`${name}:${JSON.stringify(rule)}`} name={name} rule={rule} onSaved={setAnswer} />
          ))}
        </div>
      )}
    </section>
  );
}
