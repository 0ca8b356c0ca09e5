// Who is told of a new reply by their levels (issue 62), on PGlite and PostgreSQL: a member watching
// the post, its category or one of its tags hears "watching" (once per reply, never on top of
// "replied", "quoted" or "mentioned", never of their own reply, never of a post they may not see);
// a member whose level for the post is Muted hears nothing of it, not even a quote or a mention. A
// watched post's replies collapse into one unread notification ("3 new replies in …"); a device
// older than protocol 8 never receives the kind. A post approved in a watched category or tag tells
// its watchers.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationTitle } from '../../../../src/shared/moderation';
import type { Op, WireNotification } from '../../../../src/shared/protocol';
import { Client, readNotificationsOp, replyOp, reviewOp, signedIn } from '../../support/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS } from '../../support/databases';
import { testServer, type TestServer } from '../../support/app';

const followOp = (kind: 'post' | 'category' | 'tag', target: string, level: 'watching' | 'normal' | 'muted'): Op =>
  ({ id: randomUUID(), type: 'follow', kind, target, level }) as Op;

describe.each(BACKENDS)('who is told by their levels on %s', (backend) => {
  let server: TestServer;
  let admin: Client;
  const clients = new Map<string, Client>();
  const ids = new Map<string, string>();
  /** Everyone of the test, by a short name: their email is <name>@example.com. */
  const NAMES = [
    'author',
    'replier',
    'post',
    'category',
    'tag',
    'normal',
    'mutedpost',
    'mutedcategory',
    'mutedtag',
    'ownnormal',
    'insider',
  ];
  const client = (name: string) => clients.get(name)!;
  /** The name each goes by: "Replier Member". */
  const display = (name: string) => `${name[0]!.toUpperCase()}${name.slice(1)} Member`;
  const mention = (name: string) => `[@${display(name)}](/members/${ids.get(name)})`;
  const applied = async (who: Client, op: Op) => expect((await who.push(op)).body?.results?.[0]).toMatchObject({ status: 'applied' });

  /** The notifications of `name` about `postId`, oldest first, as "<kind>: <title>" (the words on screen). */
  async function told(name: string, postId: number, protocol?: number): Promise<string[]> {
    const pulled = (await client(name).pull(0, 1000, protocol)).body.notifications as WireNotification[];
    return pulled
      .filter((note) => note.postId === postId)
      .sort((a, b) => a.seq - b.seq)
      .map((note) => `${note.kind}: ${notificationTitle(note)}`);
  }

  /** A post by `author` in `category` with `tags`, approved. */
  async function approvedPost(title: string, category = 'Trends', tags: string[] = ['Budget']): Promise<number> {
    const id = await client('author').createPost(title, { category, tags });
    await applied(admin, reviewOp(id));
    return id;
  }

  beforeAll(async () => {
    server = await testServer(backend);
    admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    for (const name of NAMES) {
      const member = new Client(server.app);
      await member.join(`${name}@example.com`, undefined, display(name));
      clients.set(name, member);
      ids.set(name, String((await server.db.query('SELECT member_id FROM users WHERE email = $1', [`${name}@example.com`]))[0]!.member_id));
    }
    await applied(client('category'), followOp('category', 'Trends', 'watching'));
    await applied(client('tag'), followOp('tag', 'BUDGET', 'watching'));
    await applied(client('mutedcategory'), followOp('category', 'Trends', 'muted'));
    // The category's Muted wins over a watched tag.
    await applied(client('mutedcategory'), followOp('tag', 'budget', 'watching'));
    await applied(client('mutedtag'), followOp('tag', 'budget', 'muted'));
    await applied(client('ownnormal'), followOp('category', 'Trends', 'watching'));
  });
  afterAll(() => server?.close());

  it('a reply tells each watcher once, the post’s author "replied" only, and nobody who muted it, not even of a quote or mention', async () => {
    const id = await approvedPost('Budget for the panel');
    await applied(client('post'), followOp('post', String(id), 'watching'));
    await applied(client('mutedpost'), followOp('post', String(id), 'muted'));
    // The post's own Normal wins over the watched category.
    await applied(client('ownnormal'), followOp('post', String(id), 'normal'));
    // The replier watches the post by writing in it (their own replies never tell them).
    await client('replier').reply(id, 'First thoughts.');
    const quoted = await client('mutedpost').reply(id, 'I will not follow this.');
    const text = `Agreed, ${mention('mutedpost')} ${mention('mutedcategory')} ${mention('mutedtag')} ${mention('normal')}.`;
    expect((await client('replier').push(replyOp(id, text, quoted.id))).body.results[0].status).toBe('applied');
    const title = '“Budget for the panel”';
    expect(await told('author', id)).toEqual([
      `approved: Your post ${title} was approved`,
      `replied: Replier Member replied to your post ${title}`,
      `replied: Mutedpost Member replied to your post ${title}`,
      `replied: Replier Member replied to your post ${title}`,
    ]);
    expect(await told('post', id)).toEqual([`watching: 3 new replies in ${title}`]);
    for (const name of ['category', 'tag'])
      expect(await told(name, id), name).toEqual([`watching: Author Member posted ${title}`, `watching: 3 new replies in ${title}`]);
    expect(await told('replier', id)).toEqual([`watching: Mutedpost Member replied in ${title}`]);
    expect(await told('normal', id)).toEqual([`mentioned: Replier Member mentioned you in ${title}`]);
    // Told of the post before they set it back to Normal; nothing since.
    expect(await told('ownnormal', id)).toEqual([`watching: Author Member posted ${title}`]);
    for (const name of ['mutedpost', 'mutedcategory', 'mutedtag']) expect(await told(name, id), name).toEqual([]);
  });

  it('a watched post’s replies collapse into one unread notification, the newest reply’s; once read, the next reply makes a new one', async () => {
    const id = await approvedPost('Collapse the noise');
    await client('replier').reply(id, 'One.');
    expect(await told('category', id)).toEqual([
      'watching: Author Member posted “Collapse the noise”',
      'watching: Replier Member replied in “Collapse the noise”',
    ]);
    await client('normal').reply(id, 'Two.');
    const third = await client('insider').reply(id, 'Three.');
    const notes = ((await client('category').pull()).body.notifications as WireNotification[]).filter(
      (note) => note.postId === id && note.replyId !== null,
    );
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ kind: 'watching', replyId: third.id, actor: 'Insider Member', count: 3, readAt: null });
    expect(notificationTitle(notes[0]!)).toBe('3 new replies in “Collapse the noise”');
    await applied(client('category'), readNotificationsOp([notes[0]!.id]));
    await client('replier').reply(id, 'Four.');
    expect((await told('category', id)).slice(-2)).toEqual([
      'watching: 3 new replies in “Collapse the noise”',
      'watching: Replier Member replied in “Collapse the noise”',
    ]);
  });

  it('a device older than protocol 8 never receives a "watching" notification', async () => {
    const id = await approvedPost('For new devices only');
    await client('replier').reply(id, 'Hello.');
    expect(await told('tag', id)).toEqual([
      'watching: Author Member posted “For new devices only”',
      'watching: Replier Member replied in “For new devices only”',
    ]);
    expect(await told('tag', id, 7)).toEqual([]);
  });

  it('a watcher who may not see a private category’s post is told nothing of it; one in its group is', async () => {
    const group = randomUUID();
    const room = randomUUID();
    await applied(admin, { id: randomUUID(), type: 'createGroup', groupId: group, name: 'Panel' } as Op);
    for (const name of ['author', 'insider', 'replier'])
      await applied(admin, { id: randomUUID(), type: 'addGroupMember', groupId: group, memberId: ids.get(name) } as Op);
    await applied(admin, {
      id: randomUUID(),
      type: 'createCategory',
      categoryId: room,
      name: 'Panel room',
      position: 7,
      see: [group],
      post: null,
    } as Op);
    await applied(client('insider'), followOp('tag', 'budget', 'watching'));
    const id = await approvedPost('Private budget', room);
    await client('replier').reply(id, 'Inside.');
    expect(await told('insider', id)).toEqual([
      'watching: Author Member posted “Private budget”',
      'watching: Replier Member replied in “Private budget”',
    ]);
    expect(await told('tag', id)).toEqual([]);
  });

  it('writing makes the writer watch, unless they turned it off: a post’s approval tells watchers of its category and tags only', async () => {
    const id = await approvedPost('Fresh in Trends', 'Trends', []);
    expect(await told('category', id)).toEqual(['watching: Author Member posted “Fresh in Trends”']);
    expect(await told('tag', id)).toEqual([]);
    expect(await told('mutedcategory', id)).toEqual([]);
    expect(await told('author', id)).toEqual(['approved: Your post “Fresh in Trends” was approved']);
    await applied(client('replier'), { id: randomUUID(), type: 'setAutoWatch', on: false } as Op);
    await client('replier').reply(id, 'Not watching this.');
    await client('normal').reply(id, 'But I reply.');
    expect((await told('replier', id)).length).toBe(0);
    await applied(client('replier'), { id: randomUUID(), type: 'setAutoWatch', on: true } as Op);
  });
});
