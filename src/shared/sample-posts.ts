// The three sample approved posts (realistic market-research content, kept as data in
// sample-posts.json). The device writes them on its first start (src/db/posts/seed.ts); the server
// creates them once when its database is empty.
import { CATEGORIES, newReply, type Category, type Post, type Reply } from './post-rules';
import samples from './sample-posts.json';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

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

/**
 * The sample posts' replies (their `comments` count), each under a fresh id from `newId`: the device
 * seeds its own, the server its own, and a device that meets the server drops its copies.
 */
export function sampleReplies(posts: readonly Post[], newId: () => string): Reply[] {
  return samples.flatMap((sample, index) => {
    const post = posts[index]!;
    return sample.replies.map((reply) =>
      newReply(
        newId(),
        post.id,
        { name: reply.author, email: reply.authorEmail, role: 'user' },
        reply.content,
        null,
        post.id + reply.minutesAfter * MINUTE,
      ),
    );
  });
}
