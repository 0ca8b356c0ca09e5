import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import Form from 'react-bootstrap/Form';
import { useLiveQuery } from 'dexie-react-hooks';
import { serverMentionCandidates } from '../../sync/mentions';
import { MESSAGE_LIMITS } from '../../shared/messages';
import { ownMemberIdOfSession } from '../../db/messages/messages';
import '../../components/mentions.scss';

export interface Recipient {
  id: string;
  name: string;
}

/**
 * The New message dialog's "To": typing a name offers members as a list of options (the server's
 * mention search: confirmed members by name, never an email nor a group), each chosen one a chip
 * with a Remove button; at most MESSAGE_LIMITS.maxRecipients. The member writing is never offered
 * (a message to oneself alone is refused), and the list looks as the `@` list does. The keys are a
 * combobox's (as `@`'s): ↓ and ↑ move through the options, Enter chooses one (it never sends the
 * message), Escape closes the list; the focus stays in the field, also after a click on an option.
 */
export function RecipientField({
  value,
  onChange,
  invalid,
  search = serverMentionCandidates,
}: {
  value: readonly Recipient[];
  onChange: (next: Recipient[]) => void;
  invalid?: string;
  search?: (typed: string) => Promise<Recipient[]>;
}) {
  const id = useId();
  const [typed, setTyped] = useState('');
  // The members found for what was typed (kept with it: an older answer never shows for newer typing).
  const [found, setFound] = useState<{ query: string; members: Recipient[] }>({ query: '', members: [] });
  const me = useLiveQuery(() => ownMemberIdOfSession(), []);
  const query = typed.trim();
  const options =
    found.query === query && query
      ? found.members.filter((member) => member.id !== me && !value.some((chosen) => chosen.id === member.id))
      : [];
  const full = value.length >= MESSAGE_LIMITS.maxRecipients;
  const field = useRef<HTMLInputElement>(null);
  // The option ↓ and ↑ reached, and the query whose list Escape closed: each for the query it was set at.
  const [active, setActive] = useState({ query: '', index: 0 });
  const [closedFor, setClosedFor] = useState<string | null>(null);
  const shown = closedFor === query ? [] : options;
  // The search answered and nobody is left to offer: said, as the groups' "Find a member" says it (a trial saw nothing).
  const noMatch = query !== '' && found.query === query && options.length === 0;
  const activeIndex = active.query === query ? Math.min(active.index, shown.length - 1) : 0;

  useEffect(() => {
    if (!query) return undefined;
    let current = true;
    search(query).then(
      (members) => current && setFound({ query, members }),
      () => current && setFound({ query, members: [] }),
    );
    return () => {
      current = false;
    };
  }, [query, search]);

  const choose = (member: Recipient) => {
    onChange([...value, member]);
    setTyped('');
    field.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // A name typed but not chosen yet (its search still running): Enter waits for the list, it never sends.
    if (event.key === 'Enter' && query) event.preventDefault();
    if (shown.length === 0) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : shown.length - 1;
      setActive({ query, index: (activeIndex + step) % shown.length });
    } else if (event.key === 'Enter') {
      event.preventDefault();
      choose(shown[activeIndex]!);
    } else if (event.key === 'Escape') {
      // The list closes; the dialog stays.
      event.preventDefault();
      event.stopPropagation();
      setClosedFor(query);
    }
  };
  const optionId = (member: Recipient) => `${id}-option-${member.id}`;

  return (
    <Form.Group className="mb-3">
      <Form.Label htmlFor={`${id}-to`}>To</Form.Label>
      {value.length > 0 && (
        <ul className="list-inline mb-2" aria-label="Recipients">
          {value.map((member) => (
            <li key={member.id} className="list-inline-item badge text-bg-secondary app-recipient">
              {member.name}{' '}
              <button
                type="button"
                className="btn btn-sm btn-link p-0 text-reset"
                aria-label={`Remove ${member.name}`}
                onClick={(event) => {
                  // The button goes with the name: pressed from the keyboard (detail 0), the focus goes
                  // back to To, not to the page; a tap leaves it (a phone's keyboard would rise).
                  onChange(value.filter((one) => one.id !== member.id));
                  if (event.detail === 0) field.current?.focus();
                }}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <Form.Control
        ref={field}
        id={`${id}-to`}
        role="combobox"
        aria-expanded={shown.length > 0}
        aria-activedescendant={shown.length > 0 ? optionId(shown[activeIndex]!) : undefined}
        aria-controls={`${id}-options`}
        aria-autocomplete="list"
        autoComplete="off"
        value={typed}
        // Read-only, not disabled, once full: the focus stays in To after the last name is chosen.
        readOnly={full}
        // The dialog opens in To, as New Post opens in Title (a trial typed into the dialog itself).
        autoFocus
        isInvalid={invalid !== undefined}
        placeholder={full ? `At most ${MESSAGE_LIMITS.maxRecipients} members` : 'Type a member’s name'}
        onChange={(event) => setTyped(event.target.value)}
        onKeyDown={onKeyDown}
      />
      {invalid && <Form.Control.Feedback type="invalid">{invalid}</Form.Control.Feedback>}
      <div role="status" className="small text-body-secondary">
        {noMatch && (value.length > 0 ? 'No other member matches.' : 'No member matches.')}
      </div>
      <ul id={`${id}-options`} role="listbox" aria-label="Members" className="app-mentions" hidden={shown.length === 0}>
        {shown.map((member, index) => (
          <li
            key={member.id}
            id={optionId(member)}
            role="option"
            aria-selected={index === activeIndex}
            className={index === activeIndex ? 'active' : undefined}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => choose(member)}
          >
            {member.name}
          </li>
        ))}
      </ul>
    </Form.Group>
  );
}
