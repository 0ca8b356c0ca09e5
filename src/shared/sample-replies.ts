// The sample posts' replies (sample-replies.json: one list per sample post, in sample-posts.json's
// order), written with the posts: by the device (src/db/posts/seed.ts) and the server.
import { newReply, type Post, type Reply } from './post-rules';
import replies from './sample-replies.json';

const MINUTE = 60 * 1000;

/**
 * The sample posts' replies (their `comments` count), each under a fresh id from `newId`: the device
 * seeds its own, the server its own, and a device that meets the server drops its copies.
 */
export function sampleReplies(posts: readonly Post[], newId: () => string): Reply[] {
  return replies.flatMap((list, index) => {
    const post = posts[index]!;
    return list.map((reply) =>
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
