// What a device queues is what ran (src/db/ops/run.ts): an operation's parsed arguments, sent to the
// server, which parses them again. So for every accepted case of every operation (tests/ops), the
// arguments as parsed must be a valid op on the wire, keep every field there, and parse again to themselves: a field the parse
// renames (a reply's files read into another name) would reach the server without it.
import { describe, expect, it } from 'vitest';
import { definitionOf } from '../../../../src/shared/ops/registry';
import { opSchema } from '../../../../src/shared/protocol';
import type { OpCase } from '../../../ops/world';

const tables = import.meta.glob<{ default: OpCase[] }>('../../../ops/*.cases.ts', { eager: true });
const accepted = Object.values(tables)
  .flatMap((table) => table.default)
  .filter((one) => typeof one.expect !== 'string');

/** The fields of `value` that are set, as run.ts queues them. */
const withoutUndefined = (value: object) => Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined));

describe('what is queued is what ran', () => {
  it('covers every operation that has an accepted case', () => {
    expect(new Set(accepted.map((one) => one.type)).size).toBeGreaterThan(20);
  });

  it.each(accepted.map((one) => [`${one.type}: ${one.name}`, one] as const))('%s', (_name, one) => {
    const definition = definitionOf(one.type);
    const given = { ...one.payload, id: one.id ?? '00000000-0000-4000-8000-000000000001', type: one.type };
    const args = definition.parse(given as never);
    const queued = { ...withoutUndefined(args as object), id: given.id, type: one.type };
    const wire = opSchema.safeParse(queued);
    expect(wire.success, 'the queued op is valid on the wire').toBe(true);
    // The wire drops a field it does not know: every field queued must be one the server reads.
    expect(Object.keys(wire.data ?? {}).sort(), 'no queued field is dropped by the wire').toEqual(Object.keys(queued).sort());
    expect(withoutUndefined(definition.parse(opSchema.parse(queued) as never) as object)).toEqual(withoutUndefined(args as object));
  });
});
