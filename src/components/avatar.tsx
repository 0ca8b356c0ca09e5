import { initials } from '../lib/format';
import { memberId } from '../shared/members';

const palette = ['#3b32b8', '#13795b', '#0b6e99', '#9a3412', '#7e22ce', '#b91c5c', '#1d4ed8', '#4d5b12'];

function colourFor(seed: string): string {
  let total = 0;
  for (const char of seed) total = (total * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return palette[total % palette.length] ?? palette[0]!;
}

/**
 * A round badge with a person's initials, coloured by who they are so it is stable: `seed` is their
 * email or their member id (a member page knows only that), and both give the same colour.
 */
export function Avatar({ name, seed, size = 40 }: { name: string; seed?: string; size?: number }) {
  const person = seed?.includes('@') ? memberId(seed) : seed;
  return (
    <span
      className="app-avatar"
      aria-hidden="true"
      style={{ width: size, height: size, fontSize: size * 0.4, backgroundColor: colourFor(person ?? name) }}
    >
      {initials(name)}
    </span>
  );
}
