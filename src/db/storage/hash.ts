// A fast, non-cryptographic 53-bit string hash (cyrb53), used to recognise mirror values this
// build wrote itself. It is not a security boundary. Long strings (the 4 MB mirror) can be hashed
// in slices with a yield between them, so no slice is a long task.

const SLICE = 400_000;

interface HashState {
  h1: number;
  h2: number;
}

function start(seed: number): HashState {
  return { h1: 0xdeadbeef ^ seed, h2: 0x41c6ce57 ^ seed };
}

function feed(state: HashState, value: string, from: number, to: number): void {
  let { h1, h2 } = state;
  for (let i = from; i < to; i += 1) {
    const ch = value.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  state.h1 = h1;
  state.h2 = h2;
}

function finish(state: HashState, length: number): string {
  let { h1, h2 } = state;
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const digest = 4294967296 * (2097151 & h2) + (h1 >>> 0);
  return `${digest.toString(16).padStart(14, '0')}:${length}`;
}

/** Hashes a string to a digest; equal strings give equal digests. */
export function hashString(value: string, seed = 0): string {
  const state = start(seed);
  feed(state, value, 0, value.length);
  return finish(state, value.length);
}

const yieldToBrowser = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The same digest as hashString, computed in slices with the main thread free between them. */
export async function hashStringInSlices(value: string, seed = 0): Promise<string> {
  const state = start(seed);
  for (let from = 0; from < value.length; from += SLICE) {
    if (from > 0) await yieldToBrowser();
    feed(state, value, from, Math.min(value.length, from + SLICE));
  }
  return finish(state, value.length);
}
