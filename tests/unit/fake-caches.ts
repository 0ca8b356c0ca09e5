// Cache Storage as far as the app uses it (a Map of caches of URL paths), for tests that look at what
// the app keeps in, or takes out of, the service worker's caches (vi.stubGlobal('caches', fake.api)).

export function fakeCaches() {
  const stores = new Map<string, Map<string, string>>();
  const open = async (name: string) => {
    const store = stores.get(name) ?? new Map<string, string>();
    stores.set(name, store);
    return {
      put: async (url: string, response: Response) => void store.set(new URL(url, 'http://x').pathname, await response.text()),
      delete: async (url: string) => store.delete(new URL(url, 'http://x').pathname),
      keys: async () => [...store.keys()].map((path) => new Request(`http://x${path}`)),
      match: async (url: string) => (store.has(url) ? new Response(store.get(url)) : undefined),
    };
  };
  return { stores, api: { open, has: async (name: string) => stores.has(name), delete: async (name: string) => stores.delete(name) } };
}
