import { createContext, useContext } from 'react';

/**
 * True inside the forum's first frame (db/storage/first-frame.ts): what it renders reads nothing of the
 * device's data and loads none of its code (the live forum that replaces it does).
 */
export const FirstFrameContext = createContext(false);

/** Whether this component is part of the forum's first frame. */
export function useInFirstFrame(): boolean {
  return useContext(FirstFrameContext);
}
