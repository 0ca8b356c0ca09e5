import { createContext, useContext } from 'react';
import type { EditablePost } from '../../db/posts/editing';

export interface NewPostControls {
  /** Opens the New Post modal. */
  open: () => void;
  /** Opens the same modal as "Edit Post" on the member's own post. */
  edit: (post: EditablePost) => void;
  /** Starts loading the modal's code (on hover or focus of the button). */
  preload: () => void;
}

export const NewPostContext = createContext<NewPostControls>({ open: () => undefined, edit: () => undefined, preload: () => undefined });

export function useNewPost(): NewPostControls {
  return useContext(NewPostContext);
}
