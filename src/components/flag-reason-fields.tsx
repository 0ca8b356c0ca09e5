import Form from 'react-bootstrap/Form';
import { FLAG_REASONS, FLAG_REASON_LABELS, MODERATION_LIMITS, type FlagReason } from '../shared/moderation';

/** True while a flag cannot be sent: Other needs the member's words. */
export const flagNeedsText = (reason: FlagReason | null, text: string): boolean => reason === 'other' && text.trim() === '';

/**
 * A flag's reason (four radios, `question` as their legend) and the member's words (required for
 * Other): the body of the post or reply "Flag" dialog and of "Flag message".
 */
export function FlagReasonFields({
  id,
  question,
  reason,
  onReason,
  text,
  onText,
  tried,
}: {
  id: string;
  question: string;
  reason: FlagReason | null;
  onReason: (reason: FlagReason) => void;
  text: string;
  onText: (text: string) => void;
  tried: boolean;
}) {
  return (
    <>
      <fieldset className="mb-3">
        <legend className="form-label fs-6">{question}</legend>
        {FLAG_REASONS.map((value) => (
          <Form.Check
            key={value}
            type="radio"
            id={`${id}-${value}`}
            name={`${id}-reason`}
            label={FLAG_REASON_LABELS[value]}
            checked={reason === value}
            onChange={() => onReason(value)}
            isInvalid={tried && !reason}
          />
        ))}
        {tried && !reason && <div className="invalid-feedback d-block">Please choose a reason.</div>}
      </fieldset>
      <Form.Group controlId={`${id}-text`}>
        <Form.Label>Tell us more{reason === 'other' ? '' : ' (optional)'}</Form.Label>
        <Form.Control
          as="textarea"
          rows={3}
          value={text}
          maxLength={MODERATION_LIMITS.flagText}
          required={reason === 'other'}
          isInvalid={tried && flagNeedsText(reason, text)}
          onChange={(event) => onText(event.target.value)}
        />
        <Form.Control.Feedback type="invalid">Please say what is wrong with it.</Form.Control.Feedback>
      </Form.Group>
    </>
  );
}
