import { useId } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { POLL_LIMITS, type PollDefinition } from '../../shared/polls';
import '../../components/poll.scss';

/** A poll as the New Post form holds it while it is written (the closing date as the date field gives it). */
export interface PollDraft {
  question: string;
  options: string[];
  multiple: boolean;
  /** "YYYY-MM-DD", or '' for a poll that stays open until it is closed. */
  closesOn: string;
}

export const EMPTY_POLL: PollDraft = { question: '', options: ['', ''], multiple: false, closesOn: '' };

/** The end of the day `closesOn` names on this device's clock (ms), or null for none. */
export function closingTime(closesOn: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(closesOn);
  if (!match) return closesOn ? Number.NaN : null;
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 23, 59, 59, 999).getTime();
}

/** The poll as the create operation takes it. */
export const pollDefinition = (draft: PollDraft): PollDefinition => ({
  question: draft.question,
  options: draft.options,
  multiple: draft.multiple,
  closesAt: closingTime(draft.closesOn),
});

/** Today as the date field writes it (its earliest choice). */
function today(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/**
 * The poll of a new post: Question, Option 1, Option 2… ("Add option" up to ten, each but the first
 * two removable), "Allow several answers" and an optional "Closes on" date; "Remove poll" drops it.
 */
export function PollEditor({
  draft,
  onChange,
  onRemove,
  disabled,
  invalid,
}: {
  draft: PollDraft;
  onChange: (draft: PollDraft) => void;
  onRemove: () => void;
  disabled: boolean;
  invalid: boolean;
}) {
  const id = useId();
  const setOption = (index: number, text: string) =>
    onChange({ ...draft, options: draft.options.map((option, at) => (at === index ? text : option)) });
  return (
    <fieldset className="app-poll-box mt-3" aria-labelledby={`${id}-legend`}>
      <legend id={`${id}-legend`}>Poll</legend>
      <Form.Group className="mb-3" controlId={`${id}-question`}>
        <Form.Label>Question</Form.Label>
        <Form.Control
          value={draft.question}
          onChange={(event) => onChange({ ...draft, question: event.target.value })}
          maxLength={POLL_LIMITS.question}
          placeholder="Which sample source gave the cleanest data?"
          isInvalid={invalid && !draft.question.trim()}
          disabled={disabled}
        />
      </Form.Group>
      {draft.options.map((option, index) => (
        <Form.Group key={index} className="mb-2" controlId={`${id}-option-${index}`}>
          <Form.Label className="visually-hidden">Option {index + 1}</Form.Label>
          <div className="d-flex gap-2">
            <Form.Control
              value={option}
              onChange={(event) => setOption(index, event.target.value)}
              maxLength={POLL_LIMITS.option}
              placeholder={`Option ${index + 1}`}
              isInvalid={invalid && index < POLL_LIMITS.minOptions && !option.trim()}
              disabled={disabled}
            />
            {index >= POLL_LIMITS.minOptions && (
              <Button
                variant="outline-secondary"
                aria-label={`Remove choice ${index + 1}`}
                onClick={() => onChange({ ...draft, options: draft.options.filter((_, at) => at !== index) })}
                disabled={disabled}
              >
                ✕
              </Button>
            )}
          </div>
        </Form.Group>
      ))}
      {draft.options.length < POLL_LIMITS.maxOptions && (
        <Button
          variant="link"
          size="sm"
          className="px-0"
          onClick={() => onChange({ ...draft, options: [...draft.options, ''] })}
          disabled={disabled}
        >
          Add option
        </Button>
      )}
      <Form.Check
        id={`${id}-multiple`}
        className="mt-2"
        type="checkbox"
        label="Allow several answers"
        checked={draft.multiple}
        onChange={(event) => onChange({ ...draft, multiple: event.target.checked })}
        disabled={disabled}
      />
      <div className="d-flex flex-wrap align-items-end gap-3 mt-2">
        <Form.Group controlId={`${id}-closes`}>
          <Form.Label>Closes on</Form.Label>
          <Form.Control
            type="date"
            value={draft.closesOn}
            min={today()}
            onChange={(event) => onChange({ ...draft, closesOn: event.target.value })}
            aria-describedby={`${id}-closes-help`}
            disabled={disabled}
          />
        </Form.Group>
        <Button variant="outline-secondary" size="sm" className="ms-auto" onClick={onRemove} disabled={disabled}>
          Remove poll
        </Button>
      </div>
      <Form.Text id={`${id}-closes-help`}>Optional: without a date the poll stays open until you close it.</Form.Text>
    </fieldset>
  );
}
