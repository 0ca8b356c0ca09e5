/** Vite's alias entries: `react-router` and `react-router/dom` resolve to React Router's production build. */
export declare const REACT_ROUTER_PRODUCTION_ALIASES: { find: RegExp; replacement: string }[];
