import { describe, expect, it } from 'vitest';
import { groupBy } from '../../../src/shared/group-by';

describe('groupBy', () => {
  it('keeps the groups in the order of their first item and the items in their order', () => {
    const replies = [
      { id: 'a', postId: 2 },
      { id: 'b', postId: 1 },
      { id: 'c', postId: 2 },
      { id: 'd', postId: 3 },
      { id: 'e', postId: 1 },
    ];
    const groups = groupBy(replies, (reply) => reply.postId);
    expect([...groups.keys()]).toEqual([2, 1, 3]);
    expect(groups.get(2)?.map((reply) => reply.id)).toEqual(['a', 'c']);
    expect(groups.get(1)?.map((reply) => reply.id)).toEqual(['b', 'e']);
    expect(groups.get(3)?.map((reply) => reply.id)).toEqual(['d']);
  });

  it('gives an empty map for no items, and takes any iterable and key', () => {
    expect(groupBy([], (item: number) => item).size).toBe(0);
    const byParity = groupBy(new Set([1, 2, 3, 4, 5]), (item) => (item % 2 === 0 ? 'even' : undefined));
    expect(byParity.get('even')).toEqual([2, 4]);
    expect(byParity.get(undefined)).toEqual([1, 3, 5]);
  });
});
