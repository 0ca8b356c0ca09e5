// The one shape of a post a member has just written: pending, counters at zero, "Just now". Used
// by createPost and by sync when it restores a queued create; the server sets the same fields.

import type { Post, Session } from '../types';

export interface NewPostFields {
  title: string;
  content: string;
  category: string;
}

/** A new pending post by `author` with this id (the caller trims and checks the fields). */
export function pendingPost(id: number, author: Session, fields: NewPostFields): Post {
  return {
    id,
    title: fields.title,
    content: fields.content,
    category: fields.category,
    author: author.name,
    authorEmail: author.email,
    authorRole: author.role,
    likes: 0,
    comments: 0,
    views: 0,
    date: 'Just now',
    isTopContributor: false,
    tags: [],
    status: 'pending',
  };
}
