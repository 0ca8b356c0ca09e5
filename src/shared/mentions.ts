// Mentions (issue 42): `@` in the editor offers members by name and writes the chosen one as a
// Markdown link to their page, `[@Jane Doe](/members/<id>)`: it renders as that link everywhere
// Markdown does, reads as "@Jane Doe" on cards, and names the member by their public id, so a rename
// or a second "Jane Doe" never mentions the wrong person. Those named in a post are told once it is on
// the forum (its approval; an edit of an approved post tells those it adds), in a reply at once.
import type { Problem } from './text-checks';

/** At most this many members mentioned in one post or reply. */
export const MAX_MENTIONS = 10;

const MENTION = /\[@([^\]\n]{1,100})\]\(\/members\/([0-9a-f]{16})\)/gu;

/** The public ids of the members `text` mentions, each once, in order. */
export function mentionedIds(text: string): string[] {
  return [...new Set([...text.matchAll(MENTION)].map((match) => match[2]!))];
}

/** The problem of a text mentioning more than MAX_MENTIONS members, or null. */
export function validateMentions(text: string): Problem | null {
  const count = mentionedIds(text).length;
  if (count <= MAX_MENTIONS) return null;
  return {
    code: 'invalid',
    title: 'Too many mentions',
    message: `Mention at most ${MAX_MENTIONS} members in one post or reply (this one mentions ${count}).`,
  };
}

/** The text a chosen member becomes in the editor (brackets in a name are left out: they would end the link). */
export const mentionMarkdown = (name: string, id: string): string => `[@${name.replace(/[[\]\n]/gu, '').slice(0, 100)}](/members/${id})`;
