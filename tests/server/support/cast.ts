// The cast of the messaging tests: the admin signed in, and Alice, Bob and Carol joined with their
// public member ids. `openMessages` lets them write (messages open once a post or reply of theirs is
// approved): Alice's post, approved by the admin, and a reply from each of `repliers`.
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { Client, replyOp, reviewOp } from './client';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './databases';

export interface Cast {
  admin: Client;
  alice: Client;
  bob: Client;
  carol: Client;
  /** Each member's public id (the one messages name), by name. */
  ids: { alice: string; bob: string; carol: string };
}

export async function joinCast(app: FastifyInstance): Promise<Cast> {
  const admin = new Client(app);
  const alice = new Client(app);
  const bob = new Client(app);
  const carol = new Client(app);
  await admin.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
  await alice.join('alice@example.com', undefined, 'Alice Ames');
  await bob.join('bob@example.com', undefined, 'Bob Brook');
  await carol.join('carol@example.com', undefined, 'Carol Cole');
  const idOf = async (client: Client) => (await client.request('GET', '/api/session')).body.user.id as string;
  return { admin, alice, bob, carol, ids: { alice: await idOf(alice), bob: await idOf(bob), carol: await idOf(carol) } };
}

/** Alice's post `title`, approved, and a reply of each of `repliers` on it (each applied): they may all send messages. */
export async function openMessages(cast: Cast, title: string, repliers: readonly Client[] = [cast.bob]): Promise<number> {
  const postId = await cast.alice.createPost(title);
  await cast.admin.push(reviewOp(postId));
  for (const member of repliers) expect((await member.push(replyOp(postId, 'Agreed.'))).body.results[0].status).toBe('applied');
  return postId;
}
