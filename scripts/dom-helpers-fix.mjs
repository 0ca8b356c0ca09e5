// react-bootstrap's dialogs and collapses wait for a transition's end through dom-helpers'
// transitionEnd, which a child's bubbling `transitionend` could leave waiting for ever: a closed
// dialog stayed in the page, invisible, taking every click. src/lib/transition-end.ts is the same
// function with that fixed (it says how); the app's build resolves the import there.

import { fileURLToPath } from 'node:url';

/** Vite's alias entry: react-bootstrap's `dom-helpers/transitionEnd` resolves to the fixed copy. */
export const TRANSITION_END_ALIAS = {
  find: /^dom-helpers\/transitionEnd$/,
  replacement: fileURLToPath(new URL('../src/lib/transition-end.ts', import.meta.url)),
};
