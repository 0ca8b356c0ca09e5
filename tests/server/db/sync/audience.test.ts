// A change's audience in its NOTIFY payload (db/sync/audience.ts): the bare number is everyone (what
// earlier builds sent), parts scope it, and a payload past NOTIFY's limit falls back to everyone.
import { describe, expect, it } from 'vitest';
import { Audience, MAX_PAYLOAD, parsePayload } from '../../../../server/db/sync/audience';

describe('a change’s audience', () => {
  it('is everyone when nothing is declared, or everyone is', () => {
    expect(new Audience().payload(12)).toBe('12');
    const audience = new Audience();
    audience.add({ admins: true, groups: ['g1'] });
    audience.all();
    expect(audience.payload(12)).toBe('12');
    expect(parsePayload('12')).toEqual({ seq: 12, everyone: true, admins: false, groups: [], users: [], regrouped: [] });
  });

  it('names the admins, groups, accounts and regrouped accounts, and reads back the same', () => {
    const audience = new Audience();
    audience.add({ admins: true, groups: ['g1', 'g2'], users: [7] });
    audience.add({ regrouped: [9], users: [7, 8] });
    const payload = audience.payload(40);
    expect(payload).toBe('40 a g:g1,g2 u:7,8 m:9');
    expect(parsePayload(payload)).toEqual({
      seq: 40,
      everyone: false,
      admins: true,
      groups: ['g1', 'g2'],
      users: ['7', '8'],
      regrouped: ['9'],
    });
  });

  it('falls back to everyone past the NOTIFY limit, and ignores what is not a change', () => {
    const audience = new Audience();
    audience.add({ users: Array.from({ length: MAX_PAYLOAD / 4 }, (_, index) => 100_000 + index) });
    expect(audience.payload(5)).toBe('5');
    expect(parsePayload('')).toBeUndefined();
    expect(parsePayload('x a')).toBeUndefined();
  });
});
