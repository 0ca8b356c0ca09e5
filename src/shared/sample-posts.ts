// The three sample approved posts (realistic market-research content, kept as data in
// sample-posts.json; their replies in sample-replies.ts, as the forum's first frame paints the posts
// without them). The device writes them on its first start (src/db/posts/seed.ts); the server
// creates them once when its database is empty.
import { CATEGORIES, type Category, type Post } from './post-rules';
import samples from './sample-posts.json';

const HOUR = 60 * 60 * 1000;

function category(name: string): Category {
  const found = CATEGORIES.find((known) => known === name);
  if (!found) throw new Error(`sample-posts.json: unknown category "${name}"`);
  return found;
}

/** The sample posts, dated relative to `now` so that their ids are timestamps like any other post. */
export function samplePosts(now: number): Post[] {
  return samples.map((sample) => ({
    id: now - sample.hoursAgo * HOUR,
    title: sample.title,
    content: sample.content,
    category: category(sample.category),
    author: sample.author,
    authorEmail: sample.authorEmail,
    authorRole: 'user',
    likes: sample.likes,
    comments: sample.comments,
    views: sample.views,
    date: sample.date,
    isTopContributor: sample.isTopContributor,
    tags: sample.tags,
    status: 'approved',
  }));
}
