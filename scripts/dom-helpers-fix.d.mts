/** Vite's alias entry: react-bootstrap's `dom-helpers/transitionEnd` resolves to the fixed copy. */
export declare const TRANSITION_END_ALIAS: { find: RegExp; replacement: string };
