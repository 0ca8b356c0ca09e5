import { ERRORS } from '../../shared/errors';

/** What members read in place of a hidden reply: the vocabulary's words for it, written once. */
export const HIDDEN = ERRORS.reply_hidden.title;
