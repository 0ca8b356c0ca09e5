// The live stream tells a change only to whoever may see it (lib/change-hub.ts, db/sync/audience.ts), on
// PGlite and PostgreSQL, over real streams: a change in a private category reaches its group's members,
// its author and the admins, and not a member outside it; a public change reaches everyone; a
// membership change reaches that member (whose stream then hears the group's changes); a message only
// its participants. "Not told" is shown without waiting: after a public change (a fence) that every
// stream hears, a stream that was not told the private change hears the fence's number first.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Op } from '../../../../src/shared/protocol';
import { createOp, likeOp, replyOp, reviewOp, signedIn, type Answer, type Client } from '../../support/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS } from '../../support/databases';
import { listen, testServer, type TestServer } from '../../support/app';
import { openEventStream, type EventStream } from '../../support/sse';

const applied = (answer: Answer): number => {
  expect(answer.body?.results?.[0], JSON.stringify(answer.body)).toMatchObject({ status: 'applied' });
  return Number(answer.body.cursor);
};

describe.each(BACKENDS)('who the live stream tells on %s', (backend) => {
  let server: TestServer;
  let baseUrl: string;
  const clients: Record<string, Client> = {};
  const streams: Record<string, EventStream> = {};
  const memberIds: Record<string, string> = {};
  const group = randomUUID();
  const room = randomUUID();
  let secret: number;
  const names = ['admin', 'writer', 'insider', 'stranger', 'joiner'] as const;
  type Name = (typeof names)[number];

  /** The next number `name`'s stream announces. */
  const next = (name: Name) => streams[name]!.nextCursor(() => true);
  /** A public change (a pending post in a category everyone sees): every stream hears it next. */
  const fence = async (told: readonly Name[]) => {
    const cursor = applied(await clients.stranger!.push(createOp(`Fence ${randomUUID()}`)));
    for (const name of told) expect(await next(name), `${name} heard the fence next`).toBe(cursor);
  };
  /** A fence every stream reaches, whatever it was told of before (setup's changes, heard late). */
  const catchUp = async () => {
    const cursor = applied(await clients.stranger!.push(createOp(`Fence ${randomUUID()}`)));
    for (const name of names) await streams[name]!.nextCursor((heard) => heard >= cursor);
  };
  const push = (name: Name, op: Op) => clients[name]!.push(op);

  beforeAll(async () => {
    server = await testServer(backend);
    baseUrl = await listen(server);
    clients.admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    for (const name of names.slice(1)) {
      clients[name] = await signedIn(server.app, `told-${name}@example.com`);
      memberIds[name] = (await clients[name].request('GET', '/api/session')).body.user.id as string;
    }
    applied(await push('admin', { id: randomUUID(), type: 'createGroup', groupId: group, name: 'Panel team' } as never));
    for (const name of ['writer', 'insider'] as const)
      applied(await push('admin', { id: randomUUID(), type: 'addGroupMember', groupId: group, memberId: memberIds[name] } as never));
    applied(
      await push('admin', {
        id: randomUUID(),
        type: 'createCategory',
        categoryId: room,
        name: 'Panel room',
        position: 6,
        see: [group],
        post: null,
      } as never),
    );
    secret = await clients.writer!.createPost('Panel vendor rates', { category: room });
    const open = await clients.writer!.createPost('Open notes', { category: 'Trends' });
    applied(await push('admin', reviewOp(secret)));
    applied(await push('admin', reviewOp(open))); // the writer may send messages
    for (const name of names) {
      streams[name] = await openEventStream(baseUrl, clients[name]!.cookie!);
      await next(name); // the head on connect
    }
    // The setup's own changes may still be on their way (PGlite's NOTIFYs wait for durability).
    await catchUp();
  });
  afterAll(async () => {
    for (const stream of Object.values(streams)) stream.close();
    await server?.close();
  });

  it('tells a reply in a private category to its group, its author and the admins, and not to a member outside it', async () => {
    const cursor = applied(await push('insider', replyOp(secret, 'Rates are up this quarter.')));
    for (const name of ['admin', 'writer', 'insider'] as const) expect(await next(name), name).toBe(cursor);
    await fence(names);
  });

  it('tells a like (the like batch) in a private category to the same, and not to a member outside it', async () => {
    const cursor = applied(await push('insider', likeOp(secret)));
    for (const name of ['admin', 'writer', 'insider'] as const) expect(await next(name), name).toBe(cursor);
    await fence(names);
  });

  it('tells a public change to everyone', async () => {
    const cursor = applied(await push('joiner', createOp('Everyone hears this')));
    for (const name of names) expect(await next(name), name).toBe(cursor);
  });

  it('tells a membership change to that member, whose stream then hears the group', async () => {
    const added = applied(
      await push('admin', { id: randomUUID(), type: 'addGroupMember', groupId: group, memberId: memberIds.joiner } as never),
    );
    for (const name of ['admin', 'joiner'] as const) expect(await next(name), name).toBe(added);
    await fence(names);
    const cursor = applied(await push('writer', replyOp(secret, 'Welcome to the panel room.')));
    for (const name of ['admin', 'writer', 'insider', 'joiner'] as const) expect(await next(name), name).toBe(cursor);
    await fence(names);
  });

  it('tells a message only to its participants', async () => {
    const conversationId = randomUUID();
    const cursor = applied(
      await push('writer', {
        id: randomUUID(),
        type: 'startConversation',
        conversationId,
        recipients: [memberIds.insider],
        subject: 'Rates',
        body: 'Can we talk about the rates?',
      } as never),
    );
    for (const name of ['writer', 'insider'] as const) expect(await next(name), name).toBe(cursor);
    await fence(names);
    const sent = applied(await push('insider', { id: randomUUID(), type: 'sendMessage', conversationId, body: 'Yes.' } as never));
    for (const name of ['writer', 'insider'] as const) expect(await next(name), name).toBe(sent);
    await fence(names);
  });
});
