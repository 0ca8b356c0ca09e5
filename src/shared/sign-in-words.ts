// The words of /login's single sign-on button, apart from the sign-in's schemas: /login shows them,
// and importing them from shared/sign-in.ts put zod (25 KB gzip) on the way from /login to /forum
// on every device, local-only included (issue 64, item 2).

/** The single sign-on button's words: "Sign in with {label}". */
export const ssoButtonWords = (label: string): string => `Sign in with ${label}`;
