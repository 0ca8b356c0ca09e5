// `is:unread` and `is:watching` in the search language (issue 62): parsed as flags with chips as
// the other filters have, removable one at a time; matchesFilters passes them (the device narrows
// the list by the member's own state, which the search index does not hold).
import { describe, expect, it } from 'vitest';
import { describeQuery, matchesFilters, parseQuery, removeChip } from '../../../src/shared/search-language';

const post = { title: 'T', content: 'C', author: 'Ana', authorEmail: 'ana@example.com', category: 'Trends', tags: ['nps'] };

describe('is:unread and is:watching', () => {
  it('parse as flags with the chips "Unread" and "Watching", in any case, beside other filters', () => {
    const parsed = parseQuery('surveys IS:unread tag:nps is:Watching');
    expect(parsed).toMatchObject({ text: 'surveys', unread: true, watching: true, mine: false, tags: ['nps'] });
    expect(parsed.chips.map((chip) => [chip.kind, chip.label])).toEqual([
      ['unread', 'Unread'],
      ['tag', 'Tag: nps'],
      ['watching', 'Watching'],
    ]);
    expect(describeQuery('is:unread surveys')).toBe('“surveys” · Unread');
  });

  it('a chip removed takes only its own words', () => {
    const query = 'is:unread is:watching surveys';
    const parsed = parseQuery(query);
    const unread = parsed.chips.find((chip) => chip.kind === 'unread')!;
    expect(removeChip(query, unread)).toBe('is:watching surveys');
  });

  it('other is: words stay free text; matchesFilters passes the follow filters through', () => {
    expect(parseQuery('is:muted').text).toBe('is:muted');
    expect(parseQuery('is:unreadish').unread).toBe(false);
    expect(matchesFilters(post, parseQuery('is:unread is:watching'), null)).toBe(true);
  });
});
