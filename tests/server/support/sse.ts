// Reads a Server-Sent Events stream over real HTTP until a wanted message arrives (no sleeps:
// it waits on the stream itself, bounded by the test's timeout).
export interface EventStream {
  /** Resolves with the first `changes` cursor that satisfies `accept`. */
  nextCursor(accept: (cursor: number) => boolean): Promise<number>;
  /** Resolves once a heartbeat comment arrives. */
  heartbeat(): Promise<void>;
  /** Resolves once the server ends the stream. */
  ended(): Promise<void>;
  close(): void;
}

export async function openEventStream(baseUrl: string, cookie: string): Promise<EventStream> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/events`, { headers: { cookie }, signal: controller.signal });
  if (response.status !== 200 || !response.body) throw new Error(`events answered ${response.status}`);
  expectHeader(response.headers.get('content-type'), 'text/event-stream');
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const next = async (match: (block: string) => boolean): Promise<string> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (match(block)) return block;
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the event stream ended');
      buffer += value;
    }
  };
  const cursorOf = (block: string) => {
    const data = /^event: changes\ndata: (.*)$/m.exec(block)?.[1];
    return data ? (JSON.parse(data) as { cursor: number }).cursor : undefined;
  };
  return {
    nextCursor: async (accept) =>
      cursorOf(
        await next((block) => {
          const c = cursorOf(block);
          return c !== undefined && accept(c);
        }),
      )!,
    heartbeat: async () => void (await next((block) => block.startsWith(': heartbeat'))),
    ended: async () => {
      for (;;) if ((await reader.read()).done) return;
    },
    close: () => controller.abort(),
  };
}

function expectHeader(value: string | null, start: string): void {
  if (!value?.startsWith(start)) throw new Error(`unexpected content-type ${value}`);
}
