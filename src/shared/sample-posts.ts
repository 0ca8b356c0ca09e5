// The three sample approved posts (realistic market-research content). The device writes them on
// its first start (src/db/seed.ts); the server creates them once when its database is empty.
import type { Post } from './post-rules';

const HOUR = 60 * 60 * 1000;

/** The sample posts, dated relative to `now` so that their ids are timestamps like any other post. */
export function samplePosts(now: number): Post[] {
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
