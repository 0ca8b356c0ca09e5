// @vitest-environment happy-dom
// A search as a new user reads it (issue 59, item 7): a phrase is quoted once in the summary, and a
// card whose match lies past its first lines shows the match, marked.
import { cleanup, render } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { PostCard } from '../../../src/components/post-card';
import { describeQuery, matchExcerpt, parseQuery } from '../../../src/shared/search-language';
import { makePost } from '../factories';

afterEach(cleanup);

const LONG =
  'Our current guardrails for coding open ends with a model: a human coder double-codes a random 10% sample, we report inter-rater agreement against the model, and every quoted verbatim links back.';

describe('the results summary', () => {
  it('quotes a phrase once, the free text once, and names filters as their chips do', () => {
    expect(describeQuery('"inter-rater agreement"')).toBe('“inter-rater agreement”');
    expect(describeQuery('panel')).toBe('“panel”');
    expect(describeQuery('coding "Inter-rater agreement" tag:nps')).toBe('“coding” · “Inter-rater agreement” · Tag: nps');
  });
});

describe('a card’s excerpt under a search', () => {
  it('starts near a match that lies past the first lines, at a word', () => {
    const excerpt = matchExcerpt(LONG, parseQuery('"inter-rater agreement"'));
    expect(excerpt.startsWith('…')).toBe(true);
    expect(excerpt.indexOf('inter-rater agreement')).toBeLessThan(45);
    expect(LONG.includes(excerpt.slice(1))).toBe(true);
    expect(LONG.split(' ')).toContain(excerpt.slice(1).split(' ')[0]);
  });

  it('keeps the start when the match is near it, or there is no query', () => {
    expect(matchExcerpt(LONG, parseQuery('guardrails'))).toBe(LONG);
    expect(matchExcerpt(LONG, undefined)).toBe(LONG);
    expect(matchExcerpt(LONG, parseQuery('zeppelin'))).toBe(LONG);
  });

  it.each([
    ['"inter-rater agreement"', 'inter-rater agreement'],
    ['Inter-Rater', 'inter-rater'],
  ])('marks %s in the card’s title and in its excerpt’s first lines', (typed, marked) => {
    const post = makePost({ title: 'Checking inter-rater agreement', content: LONG, status: 'approved' });
    const { container } = render(
      <MemoryRouter>
        <PostCard post={post} query={parseQuery(typed)} />
      </MemoryRouter>,
    );
    expect(container.querySelector('.app-post-title mark')?.textContent).toBe(marked);
    expect(container.querySelector('.app-post-content mark')?.textContent).toBe(marked);
    // Within the clamp's first lines (it was some 100 characters in, out of sight).
    expect(container.querySelector('.app-post-content')!.textContent!.indexOf(marked)).toBeLessThan(45);
  });
});
