import { useId } from 'react';
import { LIMITS } from '../shared/post-rules';
import { MIN_PASSWORD_LENGTH } from '../shared/account-rules';

/**
 * A "New password" field with the server's rule under it and the refusal, when there is one, in its
 * description (the reset link's page and Profile's Password).
 */
export function NewPasswordField(props: {
  value: string;
  onChange: (value: string) => void;
  problem?: string;
  disabled: boolean;
  /** What else happens (other devices signed out…), after the rule. */
  note: string;
  className?: string;
}) {
  const id = useId();
  const { value, onChange, problem, disabled, note, className = 'mb-3' } = props;
  return (
    <div className={className}>
      <label htmlFor={`${id}-password`} className="form-label">
        New password
      </label>
      <input
        id={`${id}-password`}
        className={`form-control${problem ? ' is-invalid' : ''}`}
        type="password"
        autoComplete="new-password"
        value={value}
        maxLength={LIMITS.password}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={Boolean(problem)}
        aria-describedby={`${id}-rule${problem ? ` ${id}-problem` : ''}`}
        disabled={disabled}
      />
      {problem && (
        <div className="invalid-feedback" id={`${id}-problem`}>
          {problem}
        </div>
      )}
      <small id={`${id}-rule`} className="form-text d-block">
        At least {MIN_PASSWORD_LENGTH} characters, and not a commonly used password. {note}
      </small>
    </div>
  );
}
