// Builds a deterministic backup file of N realistic posts for the benchmark (the same N gives
// the same file): varied titles, 300-900 characters of content, every category and status.

const CATEGORIES = ['Quantitative', 'Qualitative', 'AI & Technology', 'Trends', 'Best Practices', 'Case Studies'];
const AUTHORS = [
  'Sarah Chen',
  'Marcus Johnson',
  'Priya Patel',
  'Diego Alvarez',
  'Amara Okafor',
  'Lena Fischer',
  'Kenji Sato',
  'Fatima Zahra',
  'Oliver Brooks',
  'Sofia Rossi',
  'Noah Williams',
  'Hannah Kim',
  'Mateus Costa',
  'Aisha Rahman',
  'Lucas Martin',
  'Emma Larsen',
];
const TOPICS = [
  'panel quality',
  'survey length',
  'MaxDiff design',
  'conjoint pricing',
  'diary studies',
  'online communities',
  'brand tracking',
  'segmentation',
  'synthetic respondents',
  'LLM coding of open ends',
  'mobile-first surveys',
  'incidence rates',
  'weighting schemes',
  'NPS drivers',
  'shopper journeys',
  'concept testing',
  'ad testing',
  'usability sessions',
  'B2B recruitment',
  'data privacy',
];
const OPENERS = [
  'How are you handling',
  'Lessons learned from',
  'A practical guide to',
  'What we got wrong about',
  'Benchmarks for',
  'Is anyone else seeing problems with',
  'Our checklist for',
  'Rethinking',
  'Quick question on',
  'Case study:',
];
const SENTENCES = [
  'We ran the study across four markets with a sample of roughly 1,200 completes per market.',
  'Completion rates dropped sharply once the questionnaire passed the twelve-minute mark.',
  'The client wanted a single number, so we built an index from the three strongest drivers.',
  'Open-ended answers were coded by two researchers and the agreement was surprisingly low.',
  'We added attention checks, but the speeders they caught were not the ones we expected.',
  'Weighting to census targets moved the topline by less than a point, which reassured everyone.',
  'The qualitative phase changed how we wrote the quantitative questionnaire entirely.',
  'Stakeholders engaged far more with short video clips than with the written report.',
  'We compared three panel vendors and saw meaningful differences in response quality.',
  'Pricing results were only stable once we anchored the scale with a realistic reference price.',
  'Synthetic data helped us pressure-test the design, but we never reported it as findings.',
  'Mobile respondents skipped grid questions far more often than desktop respondents did.',
  'A small pilot of fifty interviews saved us from a confusing screener question.',
  'The segmentation looked elegant on paper but the sales team could not use it.',
  'We documented every decision in a methods appendix so the work can be repeated next year.',
];

function random(seed) {
  let state = seed % 2147483647;
  if (state <= 0) state += 2147483646;
  return () => {
    state = (state * 16807) % 2147483647;
    return (state - 1) / 2147483646;
  };
}

/** The posts, newest first by id, ids one minute apart ending at `newest`. */
export function generatePosts(count, newest = Date.UTC(2026, 10, 20, 12)) {
  const next = random(count + 17);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const posts = [];
  for (let i = 0; i < count; i += 1) {
    const topic = pick(TOPICS);
    const sentences = 3 + Math.floor(next() * 7);
    const content = Array.from({ length: sentences }, () => pick(SENTENCES)).join(' ');
    const author = pick(AUTHORS);
    const roll = next();
    posts.push({
      id: newest - i * 60_000,
      title: `${pick(OPENERS)} ${topic} (#${count - i})`,
      content,
      category: pick(CATEGORIES),
      author,
      authorEmail: `${author.toLowerCase().replace(/[^a-z]+/g, '.')}@example.com`,
      authorRole: 'user',
      likes: Math.floor(next() * 120),
      comments: Math.floor(next() * 40),
      views: Math.floor(next() * 4_000),
      date: '',
      isTopContributor: next() < 0.1,
      tags: [topic.split(' ')[0], pick(TOPICS).split(' ')[0]],
      status: roll < 0.9 ? 'approved' : roll < 0.97 ? 'pending' : 'rejected',
    });
  }
  return posts;
}

export function backupJson(count) {
  return JSON.stringify({
    format: 'insight-exchange-backup',
    version: 1,
    exportedAt: new Date(0).toISOString(),
    scope: 'all',
    count,
    posts: generatePosts(count),
  });
}
