import { createContext, useContext } from 'react';

export interface NewPostControls {
  /** Opens the New Post modal. */
  open: () => void;
  /** Starts loading the modal's code (on hover or focus of the button). */
  preload: () => void;
}

export const NewPostContext = createContext<NewPostControls>({ open: () => undefined, preload: () => undefined });

export function useNewPost(): NewPostControls {
  return useContext(NewPostContext);
}
