// Mentions (issue 42): what counts as a mention in a text, its limit, what `@` typed in the editor
// looks for, and the order the list offers members in.
import { describe, expect, it } from 'vitest';
import { MAX_MENTIONS, mentionedIds, mentionMarkdown, validateMentions } from '../../../src/shared/mentions';
import { typedMention } from '../../../src/components/mentions';
import { rankCandidates } from '../../../src/db/members/mentions';

const ID = '0123456789abcdef';

describe('mentions', () => {
  it('a mention is the link the editor writes: each member once, in order; other links are not mentions', () => {
    const text = `${mentionMarkdown('Jane [Doe]', ID)} and ${mentionMarkdown('Bo', 'fedcba9876543210')} and again ${mentionMarkdown('Jane', ID)}; [@x](/members/123) [@y](https://evil.example/members/${ID})`;
    expect(mentionMarkdown('Jane [Doe]', ID)).toBe(`[@Jane Doe](/members/${ID})`);
    expect(mentionedIds(text)).toEqual([ID, 'fedcba9876543210']);
  });

  it('at most 10 members in one text, said in words', () => {
    const many = (count: number) =>
      Array.from({ length: count }, (_, index) => mentionMarkdown('M', index.toString(16).padStart(16, '0'))).join(' ');
    expect(validateMentions(many(MAX_MENTIONS))).toBeNull();
    expect(validateMentions(many(MAX_MENTIONS + 1))?.message).toBe(
      'Mention at most 10 members in one post or reply (this one mentions 11).',
    );
  });

  it('what is typed after an @ at the caret: at the start, after a space or an opening mark; not inside a word or an email', () => {
    expect(typedMention('@ja', 3)).toEqual({ at: 0, text: 'ja' });
    expect(typedMention('Thanks @Jane D', 14)).toEqual({ at: 7, text: 'Jane D' });
    expect(typedMention('(@bo', 4)).toEqual({ at: 1, text: 'bo' });
    expect(typedMention('mail me at jane@example', 23)).toBeNull();
    expect(typedMention('just @', 6)).toBeNull();
    expect(typedMention('@ja and more', 3)).toEqual({ at: 0, text: 'ja' });
    expect(typedMention('@ja\nnext', 8)).toBeNull();
  });

  it('the list: names that start with what was typed first, then a word of the name; each member once, never oneself, at most 8', () => {
    const candidates = [
      { id: 'a', name: 'Mary Jane' },
      { id: 'b', name: 'Jane Doe' },
      { id: 'b', name: 'Jane Doe' },
      { id: 'c', name: 'Janet' },
      { id: 'me', name: 'Jane Self' },
      { id: 'd', name: 'Bob' },
      ...Array.from({ length: 10 }, (_, index) => ({ id: `z${index}`, name: `Jane ${index}` })),
    ];
    const ranked = rankCandidates(candidates, 'jan', 'me');
    expect(ranked).toHaveLength(8);
    expect(ranked.map((candidate) => candidate.name).slice(0, 3)).toEqual(['Jane 0', 'Jane 1', 'Jane 2']);
    expect(rankCandidates(candidates.slice(0, 6), 'jan', 'me').map((candidate) => candidate.name)).toEqual([
      'Jane Doe',
      'Janet',
      'Mary Jane',
    ]);
  });
});
