// The three sample approved posts, written once: on the first start, when IndexedDB holds no
// posts and the legacy `posts` key is absent (SPEC §7). A flag in `meta` keeps them from ever
// coming back after that, even if every post is later removed.

import { db, type PostRow } from './schema';
import { emitLocalChange } from './changes';
import { countChange, nextRev } from './revisions';

const SEEDED_KEY = 'seeded';
const HOUR = 60 * 60 * 1000;

/** The sample posts, dated relative to `now` so that their ids are timestamps like any other post. */
export function samplePosts(now: number): PostRow[] {
  return [
    {
      id: now - 2 * HOUR,
      title: 'How are you validating AI-generated survey insights before they reach clients?',
      content:
        'We have started using LLMs to code open-ended responses and draft first-pass summaries for a 4,000-respondent brand tracker. ' +
        'Speed is great, but we caught two themes that were confidently stated and simply not in the data. Our current guardrails: ' +
        'a human coder double-codes a random 10% sample, we report inter-rater agreement against the model, and every quoted verbatim ' +
        'has to link back to a respondent ID. Curious what checks others run, and whether you disclose AI assistance in the methodology section.',
      category: 'AI & Technology',
      author: 'Sarah Chen',
      authorEmail: 'sarah.chen@northbeam-research.com',
      authorRole: 'user',
      likes: 24,
      comments: 8,
      views: 156,
      date: '2 hours ago',
      isTopContributor: true,
      tags: ['AI', 'Open-ends', 'Data quality'],
      status: 'approved',
    },
    {
      id: now - 5 * HOUR,
      title: 'Remote ethnography: what worked in our 12-market diary study',
      content:
        'We just wrapped a three-week mobile diary study across 12 markets on how households plan weekly grocery shops. What worked: ' +
        'short daily prompts (under five minutes), asking for a photo before any written answer, and a mid-study video call to probe ' +
        'surprises while they were fresh. What did not: long weekend tasks (completion fell by a third) and translated prompts that ' +
        'were never piloted locally. Happy to share our prompt calendar and incentive structure if it helps anyone planning something similar.',
      category: 'Qualitative',
      author: 'Marcus Johnson',
      authorEmail: 'marcus.johnson@fieldnotes.co',
      authorRole: 'user',
      likes: 18,
      comments: 12,
      views: 203,
      date: '5 hours ago',
      isTopContributor: false,
      tags: ['Ethnography', 'Diary studies', 'Remote research'],
      status: 'approved',
    },
    {
      id: now - 26 * HOUR,
      title: 'MaxDiff or conjoint for feature prioritisation? Our rule of thumb',
      content:
        'A product team asked us to rank 28 candidate features for a subscription app. We went with MaxDiff (anchored, with a ' +
        '"would pay for this" threshold) because they needed a clean priority order, not willingness-to-pay for bundles. When the ' +
        'question becomes "which package at which price", we switch to choice-based conjoint with 3–4 attributes. Sample: n=1,200, ' +
        'hierarchical Bayes utilities, and a holdout task to check predictive validity (hit rate 71%). How do you decide between the two?',
      category: 'Quantitative',
      author: 'Priya Patel',
      authorEmail: 'priya.patel@quantsight.io',
      authorRole: 'user',
      likes: 31,
      comments: 15,
      views: 289,
      date: '1 day ago',
      isTopContributor: true,
      tags: ['MaxDiff', 'Conjoint', 'Pricing'],
      status: 'approved',
    },
  ];
}

/**
 * Writes the sample posts on the very first start only; `legacyPostsPresent` is true when the
 * `posts` key exists (then the older build's posts are imported instead). Returns true if it seeded.
 */
export async function seedSamplePosts(legacyPostsPresent: boolean, now = Date.now()): Promise<boolean> {
  const seeded = await db.transaction('rw', db.posts, db.meta, async () => {
    if (await db.meta.get(SEEDED_KEY)) return false;
    await db.meta.put({ key: SEEDED_KEY, value: now });
    // Two tabs starting at once both get here; the transaction lets only the first one write.
    if (legacyPostsPresent || (await db.posts.count()) > 0) return false;
    let rev = await nextRev();
    await db.posts.bulkAdd(samplePosts(now).map((post) => ({ ...post, rev: rev++ })));
    await countChange();
    return true;
  });
  if (seeded) emitLocalChange('seeded');
  return seeded;
}
