// The words of the Messages screens, written once.

/** A local-only device has no messages: what /messages says instead. */
export const MESSAGES_NEED_SERVER =
  'Messages need the server: they travel between members through it. This device keeps the forum on its own (local-only mode), so it has no messages.';

/** Above a refused message kept as a draft: the server's sentence, then where the words are. */
export const notSent = (reason: string) => `Your message was not sent: ${reason}`;
