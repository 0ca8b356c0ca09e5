// GET /api/health without the schema library: this is all a local-only device ever runs of the
// sync code, so it stays a few hundred bytes (the zod-checked client loads only when connected).

export interface HealthCheck {
  health(): Promise<boolean>;
}

/** True when the origin answers /api/health with the server's JSON (`{ ok: true, … }`). */
export async function checkHealth(
  fetchImpl: (input: string, init?: RequestInit) => Promise<Response> = (input, init) => fetch(input, init),
): Promise<boolean> {
  try {
    const response = await fetchImpl('/api/health', { cache: 'no-store', headers: { accept: 'application/json' } });
    if (!response.ok || !(response.headers.get('content-type') ?? '').includes('application/json')) return false;
    const body = (await response.json()) as { ok?: unknown } | null;
    return body?.ok === true;
  } catch {
    return false;
  }
}
