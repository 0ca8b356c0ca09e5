import { formatCount } from '../lib/format';

interface CharCounterProps {
  id: string;
  length: number;
  max: number;
  /** What the field holds, for the sentence at the limit ("A title", "Content", "A reply"). */
  noun: string;
}

/** "12 / 200", and a plain sentence once the limit is reached. */
export function CharCounter({ id, length, max, noun }: CharCounterProps) {
  const full = length >= max;
  return (
    <div id={id} className={`app-counter${full ? ' is-full' : ''}`}>
      {full && <span role="status">{`${noun} can be at most ${formatCount(max)} characters. `}</span>}
      <span>
        {formatCount(length)} / {formatCount(max)}
      </span>
    </div>
  );
}
