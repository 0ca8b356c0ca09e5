// A link's page asks whether its link still works (POST /api/links/check) before a password is typed:
// an expired or used link, and a token that is no link's at all (a copy cut short), do not work; any
// other failure (offline, the server away) is thrown, and the page shows its form.
import { describe, expect, it } from 'vitest';
import { createApi } from '../../../src/sync/api';
import { linkWorks } from '../../../src/sync/account';

const answering = (status: number, body: unknown) =>
  createApi(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
const refusal = (code: string, message: string) => ({ error: { code, message } });

describe('linkWorks', () => {
  it('works: true; expired or used: false; not a link’s token: false', async () => {
    expect(await linkWorks('t'.repeat(43), answering(200, { message: 'This link works.' }))).toBe(true);
    expect(await linkWorks('t'.repeat(43), answering(410, refusal('link_expired', 'This link has expired or was already used.')))).toBe(
      false,
    );
    expect(await linkWorks('short', answering(400, refusal('invalid', 'This link is not valid.')))).toBe(false);
  });

  it('offline, or the server failing: thrown (the page shows its form)', async () => {
    const offline = createApi(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(linkWorks('t'.repeat(43), offline)).rejects.toBeTruthy();
    await expect(linkWorks('t'.repeat(43), answering(500, refusal('server_error', 'Something went wrong.')))).rejects.toBeTruthy();
  });
});
