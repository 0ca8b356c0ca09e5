import { useEffect, useId, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { mentionMarkdown } from '../shared/mentions';
import type { MentionCandidate } from '../db/members/mentions';
import './mentions.scss';

/** What was typed after an `@` up to the caret: where the `@` is, and the text after it. */
interface Typed {
  at: number;
  text: string;
}

// An @ at the start or after a space or an opening mark, then 1–30 characters of a name.
const TYPED = /(?:^|[\s([{"'“])@([\p{L}\p{N}][\p{L}\p{N} .'’-]{0,29})$/u;

/** The `@name` being typed at `caret` in `value`, or null. */
export function typedMention(value: string, caret: number): Typed | null {
  const before = value.slice(Math.max(0, caret - 40), caret);
  const match = TYPED.exec(before);
  if (!match) return null;
  return { at: caret - match[1]!.length - 1, text: match[1]! };
}

/** How many characters after `@` before the server is asked. */
const SERVER_MENTION_MIN = 2;

/** Members for `typed`: the device's at once, then merged with the server's when the device is connected and online. */
async function candidatesFor(typed: string, email: string, onServer: (list: MentionCandidate[]) => void): Promise<MentionCandidate[]> {
  const { deviceMentionCandidates, isConnectedDevice, rankCandidates } = await import('../db/members/mentions');
  const local = await deviceMentionCandidates(typed, email);
  // The server knows every member (a new colleague who has not written yet too): asked from two
  // characters on, so one letter does not spend the search limit.
  if (typed.length >= SERVER_MENTION_MIN && navigator.onLine && (await isConnectedDevice())) {
    void import('../sync/mentions')
      .then(({ serverMentionCandidates }) => serverMentionCandidates(typed))
      .then((server) => onServer(rankCandidates([...local, ...server], typed)))
      .catch(() => undefined);
  }
  return local;
}

/**
 * `@` mentions for a textarea (issue 42): while a name is typed after an `@`, a list of members
 * ("Mention a member") under the field; ArrowDown and ArrowUp move, Enter or Tab chooses, Escape
 * closes; a chosen member becomes `[@Name](/members/<id>)`. Returns the list to render after the
 * textarea and the key handler to give it.
 */
export function useMentions({
  textarea,
  value,
  onChange,
  email,
}: {
  textarea: RefObject<HTMLTextAreaElement | null>;
  value: string;
  onChange: (value: string) => void;
  email: string;
}): { list: ReactNode; onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => void; onSelect: () => void } {
  const id = useId();
  // Where the caret is (React's onSelect follows typing and moving it): what is typed is read from it.
  const [caret, setCaret] = useState<number | null>(null);
  const typed = caret !== null && caret <= value.length ? typedMention(value, caret) : null;
  const [found, setFound] = useState<{ for: string; list: MentionCandidate[] }>({ for: '', list: [] });
  const [active, setActive] = useState(0);
  const [closedAt, setClosedAt] = useState<number | null>(null);

  const follow = () => {
    const field = textarea.current;
    if (field) setCaret(field.selectionStart ?? field.value.length);
  };

  const text = typed?.text ?? '';
  useEffect(() => {
    if (!text) return undefined;
    let stale = false;
    const show = (list: MentionCandidate[]) => {
      if (!stale) setFound({ for: text, list });
    };
    const timer = setTimeout(
      () =>
        void candidatesFor(text, email, show)
          .then(show)
          .catch(() => undefined),
      80,
    );
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [text, email]);

  const list = typed && found.for === typed.text && closedAt !== typed.at ? found.list : [];
  const open = list.length > 0;
  const choose = (candidate: MentionCandidate) => {
    if (!typed) return;
    const inserted = `${mentionMarkdown(candidate.name, candidate.id)} `;
    const end = typed.at + 1 + typed.text.length;
    const next = value.slice(0, typed.at) + inserted + value.slice(end);
    onChange(next);
    setCaret(typed.at + inserted.length);
    requestAnimationFrame(() => {
      const field = textarea.current;
      if (!field) return;
      field.focus();
      field.setSelectionRange(typed.at + inserted.length, typed.at + inserted.length);
    });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!open) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => (Math.min(current, list.length - 1) + step + list.length) % list.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      choose(list[Math.min(active, list.length - 1)]!);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      setClosedAt(typed!.at);
    }
  };
  const shown = Math.min(active, list.length - 1);
  const listNode = open ? (
    <ul id={`${id}-mentions`} role="listbox" aria-label="Mention a member" className="app-mentions">
      {list.map((candidate, index) => (
        <li
          key={candidate.id}
          role="option"
          aria-selected={index === shown}
          className={index === shown ? 'active' : undefined}
          onMouseDown={(event) => {
            event.preventDefault();
            choose(candidate);
          }}
        >
          {candidate.name}
        </li>
      ))}
    </ul>
  ) : null;
  return { list: listNode, onKeyDown, onSelect: follow };
}
