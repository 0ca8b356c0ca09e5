// The live streams this instance holds open, by session: at most `perSession` for one session (a
// device has a few tabs, not hundreds) and `perInstance` in all (each is a socket and a listener),
// and every stream of a session is closed when that session is revoked.

export interface StreamLimits {
  /** Open streams one session may hold (default 10). */
  perSession: number;
  /** Open streams this instance holds at most (MAX_LIVE_STREAMS, default 10,000). */
  perInstance: number;
}

export class LiveStreams {
  private readonly bySession = new Map<string, Set<() => void>>();
  private open = 0;

  constructor(private readonly limits: StreamLimits) {}

  /** Why one more stream for `session` is refused ('session', 'instance'), or undefined when it fits. */
  refusal(session: string): 'session' | 'instance' | undefined {
    if ((this.bySession.get(session)?.size ?? 0) >= this.limits.perSession) return 'session';
    if (this.open >= this.limits.perInstance) return 'instance';
    return undefined;
  }

  /** Holds `close` (which ends one stream) under `session`; returns the function that forgets it. */
  add(session: string, close: () => void): () => void {
    let streams = this.bySession.get(session);
    if (!streams) this.bySession.set(session, (streams = new Set()));
    streams.add(close);
    this.open += 1;
    return () => {
      if (!streams.delete(close)) return;
      this.open -= 1;
      if (streams.size === 0 && this.bySession.get(session) === streams) this.bySession.delete(session);
    };
  }

  /** Ends every stream of `session` (signed out, replaced by a new sign-in, its password changed). */
  closeSession(session: string): void {
    for (const close of [...(this.bySession.get(session) ?? [])]) close();
  }

  /** The sessions with a stream open. */
  get sessions(): string[] {
    return [...this.bySession.keys()];
  }

  /** Ends every stream (the server is closing). */
  closeAll(): void {
    for (const streams of [...this.bySession.values()]) for (const close of [...streams]) close();
  }

  get size(): number {
    return this.open;
  }
}
