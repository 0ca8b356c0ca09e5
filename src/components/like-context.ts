import { createContext } from 'react';

/**
 * What a Like press runs: the protected area gives the data layer's likePost (db/likes/likes.ts),
 * loaded with it, so a like works offline the moment the forum shows. Without it (the forum's first
 * frame on a new browser, which is inert) a press does nothing.
 */
export const LikeContext = createContext<((postId: number) => Promise<unknown>) | undefined>(undefined);
