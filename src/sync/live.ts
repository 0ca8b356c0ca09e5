// The live stream (GET /api/events, Server-Sent Events): it only says "changes up to N exist",
// and the engine pulls. The browser's EventSource reconnects by itself after a network error;
// a stream the server closed (signed out) is opened again by the app when the session changes.

export interface LiveSource {
  readonly readyState: number;
  addEventListener(type: 'changes', listener: (event: MessageEvent<string>) => void): void;
  close(): void;
}

export type OpenSource = (url: string) => LiveSource;

/** Opens the stream; `onCursor` gets each announced change number. Returns the function that closes it. */
export function openLiveStream(open: OpenSource, onCursor: (cursor: number) => void): { close: () => void; closed: () => boolean } {
  const source = open('/api/events');
  source.addEventListener('changes', (event) => {
    try {
      const { cursor } = JSON.parse(event.data) as { cursor?: unknown };
      if (typeof cursor === 'number' && Number.isFinite(cursor)) onCursor(cursor);
    } catch {
      // A malformed event carries nothing to act on; the next one (or a focus) catches up.
    }
  });
  // EventSource.CLOSED is 2: the browser gave up (the server refused the stream).
  return { close: () => source.close(), closed: () => source.readyState === 2 };
}
