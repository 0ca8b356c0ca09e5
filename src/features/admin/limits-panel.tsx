import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { PageLoading } from '../../components/page-loading';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import type { LimitRuleShape, LimitsAnswer } from '../../sync/api';
import { readLimits, setLimits } from '../../sync/admin';
import { draftOf, LIMIT_LABELS, per, ruleOf, WINDOW_UNITS, type DraftField, type LimitDraft, type WindowUnit } from './limit-window';

/** What one limit's fields say now, and the sentence of each that cannot be saved (shown after a Save). */
interface RowProps {
  name: string;
  rule: LimitRuleShape;
  draft: LimitDraft;
  problems: Partial<Record<DraftField, string>>;
  busy: boolean;
  onChange: (draft: LimitDraft) => void;
}

/** One limit: what it is now, and its counts and windows (a number and a unit) to change. */
function LimitRow({ name, rule, draft, problems, busy, onChange }: RowProps) {
  const id = useId();
  const label = LIMIT_LABELS[name] ?? name;
  const number = (key: DraftField, text: string, min: number) => (
    <Form.Group controlId={`${id}-${key}`} className="app-limit-field">
      <Form.Label className="small mb-0">{text}</Form.Label>
      <Form.Control
        type="number"
        inputMode="numeric"
        size="sm"
        min={min}
        value={draft[key]}
        onChange={(event) => onChange({ ...draft, [key]: event.target.value })}
        disabled={busy}
        aria-invalid={problems[key] ? true : undefined}
        aria-describedby={problems[key] ? `${id}-${key}-problem` : undefined}
      />
      {problems[key] && (
        <div id={`${id}-${key}-problem`} className="small text-danger">
          {problems[key]}
        </div>
      )}
    </Form.Group>
  );
  const unit = (key: 'unit' | 'firstDayUnit', text: string) => (
    <Form.Group controlId={`${id}-${key}`} className="app-limit-unit">
      <Form.Label className="small mb-0">{text}</Form.Label>
      <Form.Select
        size="sm"
        value={draft[key]}
        onChange={(event) => onChange({ ...draft, [key]: event.target.value as WindowUnit })}
        disabled={busy}
      >
        {WINDOW_UNITS.map(({ unit: each }) => (
          <option key={each} value={each}>
            {each}
          </option>
        ))}
      </Form.Select>
    </Form.Group>
  );
  return (
    <fieldset className="app-limit" aria-label={label}>
      <legend className="h6 mb-1">{label}</legend>
      <p className="small text-body-secondary mb-2">
        {per(rule.count, rule.seconds)}; first day {per(rule.firstDayCount, rule.firstDaySeconds)}
      </p>
      <div className="app-limit-fields">
        {number('count', 'Count', 0)}
        {number('value', 'Per', 1)}
        {unit('unit', 'Unit')}
        {number('firstDayCount', 'First day count', 0)}
        {number('firstDayValue', 'First day per', 1)}
        {unit('firstDayUnit', 'First day unit')}
      </div>
    </fieldset>
  );
}

/** Every limit in one form: one Save sends each changed limit in one request (saved all or none). */
function LimitsForm({ answer, onSaved }: { answer: LimitsAnswer; onSaved: (answer: LimitsAnswer) => void }) {
  const showToast = useToast();
  const [drafts, setDrafts] = useState(() =>
    Object.fromEntries(Object.entries(answer.limits).map(([name, rule]) => [name, draftOf(rule)])),
  );
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  // Asked at each refused Save: the first marked field takes the focus once React has marked it.
  const form = useRef<HTMLFormElement>(null);
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (refusals > 0) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);
  const read = Object.fromEntries(Object.entries(drafts).map(([name, draft]) => [name, ruleOf(draft)]));
  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setChecked(true);
    if (Object.values(read).some((each) => 'problems' in each)) {
      setRefusals((count) => count + 1);
      showToast({
        title: 'Limits not saved',
        description: 'A number cannot be saved: it is marked, with what it needs.',
        variant: 'error',
      });
      return;
    }
    const changed: Record<string, LimitRuleShape> = {};
    for (const [name, each] of Object.entries(read)) {
      if ('rule' in each && JSON.stringify(each.rule) !== JSON.stringify(answer.limits[name])) changed[name] = each.rule;
    }
    const names = Object.keys(changed);
    if (names.length === 0) {
      showToast({ title: 'No limit changed', description: 'Change a number or a unit, then save.' });
      return;
    }
    setBusy(true);
    try {
      onSaved(await setLimits(changed));
      showToast({
        title: names.length === 1 ? 'Limit saved' : `${names.length} limits saved`,
        variant: 'success',
        description:
          names.map((name) => `${LIMIT_LABELS[name] ?? name}: ${per(changed[name]!.count, changed[name]!.seconds)}`).join('; ') + '.',
      });
    } catch (error) {
      showToast(errorToast(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form ref={form} className="app-limits" aria-label="Member limits" noValidate onSubmit={(event) => void save(event)}>
      {Object.entries(answer.limits).map(([name, rule]) => {
        const each = read[name]!;
        return (
          <LimitRow
            key={name}
            name={name}
            rule={rule}
            draft={drafts[name]!}
            problems={checked && 'problems' in each ? each.problems : {}}
            busy={busy}
            onChange={(draft) => setDrafts((now) => ({ ...now, [name]: draft }))}
          />
        );
      })}
      <div>
        <Button type="submit" variant="primary" disabled={busy}>
          Save limits
        </Button>
      </div>
    </form>
  );
}

/** The member limits (admins are exempt), editable in one form: read from the server, saved there (and in the staff log). */
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
        // Keyed by what it holds: saved limits start fresh drafts of their new numbers.
        <LimitsForm key={JSON.stringify(answer.limits)} answer={answer} onSaved={setAnswer} />
      )}
    </section>
  );
}
