// The live stream (GET /api/events, Server-Sent Events): it only says "changes up to N exist",
// and the engine pulls. The browser's EventSource reconnects by itself after a network error;
// a stream the server closed (signed out) is opened again by the app when the session changes.

export interface LiveSource {
  readonly readyState: number;
  addEventListener(type: 'changes', listener: (event: MessageEvent<string>) => void): void;
  addEventListener(type: 'error', listener: () => void): void;
  close(): void;
}

export type OpenSource = (url: string) => LiveSource;

/**
 * Opens the stream; `onCursor` gets each announced change number, `onError` when the server refused
 * to open it again (the session may have ended: a sync finds out and says why).
 * Returns the function that closes it.
 */
export function openLiveStream(
  open: OpenSource,
  onCursor: (cursor: number) => void,
  onError: () => void = () => undefined,
): { close: () => void; closed: () => boolean } {
  const source = open('/api/events');
  // Only a stream the browser gave up on (the server refused it): a network error reconnects by itself.
  source.addEventListener('error', () => {
    if (source.readyState === 2) onError();
  });
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
