// A post's tags as an operation carries them are read as the composer's Tags field reads what is
// typed (parseTags): a forged client's list (a fourth attack test stored ten "dup" and "a,b") comes
// out as the composer's would, on the device and on the server alike.
import { describe, expect, it } from 'vitest';
import { postFields } from '../../../../src/shared/ops/fields';
import { OpRefusal } from '../../../../src/shared/ops/define';

const post = (tags: unknown) => ({ title: 'Title', content: 'Body', category: 'Trends', tags });

describe('a post’s tags', () => {
  it('a repeat in any case is kept once, a comma parts two tags, a leading # goes', () => {
    expect(postFields(post(['dup', 'DUP', ' dup ', 'a,b', '#maxdiff'])).tags).toEqual(['dup', 'a', 'b', 'maxdiff']);
  });

  it('eleven tags once parted by their commas are refused, as typed in the composer', () => {
    expect(() => postFields(post(['a,b,c,d,e,f', 'g,h,i,j,k']))).toThrow(OpRefusal);
  });
});
