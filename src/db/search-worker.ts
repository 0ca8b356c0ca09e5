// The search worker: holds the search index off the main thread, so neither loading it nor
// scanning it ever delays a paint or a click.
import { db } from './schema';
import { SearchEngine } from './search-engine';
import type { SearchRequest, SearchResponse } from './search-protocol';

const scope = self as unknown as {
  postMessage: (message: SearchResponse) => void;
  onmessage: ((event: MessageEvent<SearchRequest>) => void) | null;
};

const engine = new SearchEngine(db, (version) => scope.postMessage({ type: 'changed', version }));

scope.onmessage = (event) => {
  const request = event.data;
  if (request.type === 'warm') {
    void engine.start().catch(() => undefined);
    return;
  }
  engine.search(request.query, request.category).then(
    (ids) => scope.postMessage({ type: 'result', id: request.id, ids, version: engine.version }),
    (error: unknown) => scope.postMessage({ type: 'failed', id: request.id, message: error instanceof Error ? error.message : String(error) }),
  );
};
