// The search worker: holds the search index off the main thread, so neither loading it nor
// scanning it ever delays a paint or a click. Started as a SharedWorker where the browser has
// them, so every open tab shares one index (one load, one copy in memory); otherwise as a
// dedicated worker per tab. It reads IndexedDB with the plain API (no Dexie); the pages tell it
// when posts changed.
import { SearchEngine } from './engine';
import { idbPostSource } from './idb-source';
import type { SearchRequest, SearchResponse } from './protocol';

interface Port {
  postMessage: (message: SearchResponse) => void;
  onmessage: ((event: MessageEvent<SearchRequest>) => void) | null;
}

const ports = new Set<Port>();
const engine = new SearchEngine(idbPostSource(), () => {
  for (const port of ports) port.postMessage({ type: 'changed' });
});

function serve(port: Port): void {
  ports.add(port);
  port.onmessage = (event) => {
    const request = event.data;
    if (request.type === 'warm') {
      void engine.start().catch(() => undefined);
      return;
    }
    if (request.type === 'refresh') {
      void engine.refresh();
      return;
    }
    if (request.type === 'bye') {
      ports.delete(port);
      return;
    }
    engine.find(request.query, request.category, request.me ?? null).then(
      ({ ids, replies }) => port.postMessage({ type: 'result', id: request.id, ids, replies }),
      (error: unknown) =>
        port.postMessage({ type: 'failed', id: request.id, message: error instanceof Error ? error.message : String(error) }),
    );
  };
}

const scope = self as unknown as { onconnect?: unknown } & Port;
if ('onconnect' in scope) {
  // SharedWorkerGlobalScope: one port per connected tab.
  (scope as unknown as { onconnect: (event: MessageEvent) => void }).onconnect = (event) => {
    const port = event.ports[0] as unknown as Port & { start?: () => void };
    serve(port);
    // Loaded for a page before this one (client.ts: extendedLifetime): catch up with what no page told.
    void engine.catchUp();
    port.start?.();
  };
} else {
  serve(scope);
}
