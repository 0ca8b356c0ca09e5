import { formatCount } from '../lib/format';

interface CharCounterProps {
  id: string;
  length: number;
  max: number;
  /** What the field holds, for the sentence at the limit ("A title", "Content", "A reply"). */
  noun: string;
}

/** A long text's counter shows from 80 % of its limit (a title's and a name's always). */
export function nearLimit(length: number, max: number): boolean {
  return length >= Math.floor(max * 0.8);
}

/**
 * "12 / 200", and a plain sentence once the limit is reached. A long text's box has no maxLength (a
 * paste past the limit would lose its end without a word): the counter says how much to remove, and
 * sending refuses it in the same words as the data layer.
 */
export function CharCounter({ id, length, max, noun }: CharCounterProps) {
  const over = length - max;
  const full = over >= 0;
  const sentence = `${noun} can be at most ${formatCount(max)} characters${over > 0 ? `: remove ${formatCount(over)}.` : '.'} `;
  return (
    <div id={id} className={`app-counter${full ? ' is-full' : ''}`}>
      {full && <span role="status">{sentence}</span>}
      <span>
        {formatCount(length)} / {formatCount(max)}
      </span>
    </div>
  );
}
