// Each test file is a browser of its own, as when every file ran in its own process. The files run
// in worker threads (vitest.config.ts), and two things of Node's reach every thread of the process:
// - BroadcastChannel: a write to IndexedDB in one file told another file's live queries that their
//   database had changed (Dexie's cross-tab news);
// - navigator.locks: one file's sync or mirror lock held another file's work back.
// The channels a file opens and the locks it asks for are named within that file only. Loaded
// before every other setup file, so that nothing opens a channel before it.
import { randomUUID } from 'node:crypto';

const scope = `${randomUUID()}:`;
const Native = globalThis.BroadcastChannel;

class FileBroadcastChannel extends Native {
  readonly #name: string;
  constructor(name: string) {
    super(scope + String(name));
    this.#name = String(name);
  }
  override get name(): string {
    return this.#name;
  }
}

globalThis.BroadcastChannel = FileBroadcastChannel;

const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
if (locks) {
  const request = locks.request.bind(locks) as (name: string, ...rest: unknown[]) => Promise<unknown>;
  Object.defineProperty(locks, 'request', {
    configurable: true,
    value: (name: string, ...rest: unknown[]) => request(scope + name, ...rest),
  });
}
