// The live side of changes: one LISTEN on `ie_changes` per instance (PGlite in-process, PostgreSQL
// across instances) fanned out to this instance's SSE streams, coalesced so a burst is one message.
import type { Database } from '../db/storage/adapter';
import { changeHead } from '../db/sync/changes';
import { CHANGES_CHANNEL } from '../db/ops/answers';

type Listener = (cursor: number) => void;

export class ChangeHub {
  private readonly listeners = new Set<Listener>();
  private head = 0;
  private scheduled = false;
  private stop?: () => Promise<void>;

  constructor(private readonly db: Database) {}

  /** Starts listening; resolves once NOTIFYs are heard. */
  async start(): Promise<void> {
    this.head = await changeHead(this.db);
    this.stop = await this.db.listen(CHANGES_CHANNEL, (payload) => this.heard(Number(payload)));
  }

  /** The newest change number this instance knows of. */
  get cursor(): number {
    return this.head;
  }

  /** Calls `listener` with the new head after changes; returns the unsubscribe function. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get size(): number {
    return this.listeners.size;
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await this.stop?.();
  }

  private heard(seq: number): void {
    if (!Number.isFinite(seq) || seq <= this.head) return;
    this.head = seq;
    if (this.scheduled) return;
    this.scheduled = true;
    setTimeout(() => {
      this.scheduled = false;
      for (const listener of this.listeners) listener(this.head);
    }, 20);
  }
}
