// The search language, which the device (both modes), the server and the tests share: each rule
// exists once. The search worker, the forum list, the server's search route and the tests all parse
// a query with parseQuery and decide a match with matchesFilters / matchesText.
//
import { normalizeSearch } from './search-text';

// A query is free text plus filters: `author:`, `category:`, `tag:` take a word or a "quoted
// value"; `is:mine`, `is:unread`, `is:watching`; a "quoted phrase". The free text that is left (filters removed, spaces
// collapsed) matches as today (product spec: a case-insensitive substring of the title or the
// content); each phrase must match the same way; each filter narrows. Filters of one kind are
// alternatives (author:ana author:ben is either), kinds combine (author: and tag: are both).

export const FILTER_KINDS = ['author', 'category', 'tag', 'mine', 'unread', 'watching', 'phrase'] as const;
export type FilterKind = (typeof FILTER_KINDS)[number];

/** One filter as a removable chip: `raw` is exactly the text it came from in the query. */
export interface QueryChip {
  kind: FilterKind;
  /** The value, unquoted ('' for `mine`, `unread` and `watching`). */
  value: string;
  /** What the chip reads: "Author: Ana", "Category: Trends", "Tag: nps", "My posts", "“exact words”". */
  label: string;
  raw: string;
}

export interface ParsedQuery {
  /** The free text, normalized (normalizeSearch) and with runs of spaces collapsed; '' when none. */
  text: string;
  phrases: string[];
  authors: string[];
  categories: string[];
  tags: string[];
  mine: boolean;
  /**
   * `is:unread` (posts with replies new to the member) and `is:watching` (posts they watch, by
   * effectiveLevel): the member's own state on the device, so matchesFilters passes them and the
   * device's list narrows by them (the server knows neither).
   */
  unread: boolean;
  watching: boolean;
  /** Every filter in the order typed (phrases included). */
  chips: QueryChip[];
}

const TOKEN = /(?:^|\s)(?:(author|category|tag):(?:"([^"]*)"|(\S+))|is:(mine|unread|watching)|"([^"]+)")(?=\s|$)/giu;

/** A filter's name with nothing after it, or empty quotes: the rest of a query typed halfway. */
const UNFINISHED = /(?<=^|\s)(?:(?:author|category|tag|is):|"")(?=\s|$)/giu;

/** What the chips of the `is:` filters read. */
const IS_LABELS = { mine: 'My posts', unread: 'Unread', watching: 'Watching' } as const;

const CHIP_LABELS: Record<Exclude<FilterKind, keyof typeof IS_LABELS | 'phrase'>, string> = {
  author: 'Author',
  category: 'Category',
  tag: 'Tag',
};

export function parseQuery(query: string): ParsedQuery {
  const parsed: ParsedQuery = {
    text: '',
    phrases: [],
    authors: [],
    categories: [],
    tags: [],
    mine: false,
    unread: false,
    watching: false,
    chips: [],
  };
  const rest = query.replace(
    TOKEN,
    (
      match,
      key: string | undefined,
      quoted: string | undefined,
      bare: string | undefined,
      is: string | undefined,
      phrase: string | undefined,
    ) => {
      const raw = match.trim();
      if (is) {
        const kind = is.toLowerCase() as keyof typeof IS_LABELS;
        parsed[kind] = true;
        parsed.chips.push({ kind, value: '', label: IS_LABELS[kind], raw });
        return ' ';
      }
      if (phrase !== undefined) {
        const value = normalizeSearch(phrase).replace(/\s+/gu, ' ');
        if (value) {
          parsed.phrases.push(value);
          parsed.chips.push({ kind: 'phrase', value, label: `“${phrase.trim()}”`, raw });
        }
        return ' ';
      }
      const kind = key!.toLowerCase() as 'author' | 'category' | 'tag';
      const shown = (quoted ?? bare ?? '').trim();
      const value = normalizeSearch(kind === 'tag' ? shown.replace(/^#/u, '') : shown).replace(/\s+/gu, ' ');
      if (!value) return ' ';
      (kind === 'author' ? parsed.authors : kind === 'category' ? parsed.categories : parsed.tags).push(value);
      parsed.chips.push({ kind, value, label: `${CHIP_LABELS[kind]}: ${shown}`, raw });
      return ' ';
    },
  );
  // A filter begun and not yet given its value (`tag:` while typing `tag:b2b`), and empty quotes,
  // narrow nothing: the list stays as it was instead of "No posts found" (a trial).
  parsed.text = normalizeSearch(rest.replace(UNFINISHED, ' ')).replace(/\s+/gu, ' ');
  return parsed;
}

/** The query without one chip (the chip's raw text removed once, spaces tidied). */
export function removeChip(query: string, chip: QueryChip): string {
  const at = query.indexOf(chip.raw);
  if (at < 0) return query;
  return `${query.slice(0, at)} ${query.slice(at + chip.raw.length)}`.replace(/\s+/gu, ' ').trim();
}

/** Whether the query has anything that narrows the forum (free text, phrases or filters). */
export function isEmptyQuery(parsed: ParsedQuery): boolean {
  return parsed.text === '' && parsed.chips.length === 0;
}

/** The fields of a post the filters read. */
export interface FilterablePost {
  title: string;
  content: string;
  author: string;
  authorEmail: string;
  category: string;
  tags: readonly string[];
}

/**
 * Whether a post passes the filters (not the free text): `me` is the signed-in member's email;
 * `categoryName` names a category by its id as members see it (a category the admins made is kept
 * by an id no member reads: `category:` looks for its name).
 */
export function matchesFilters(
  post: FilterablePost,
  parsed: ParsedQuery,
  me: string | null,
  categoryName: (id: string) => string = (id) => id,
): boolean {
  if (parsed.mine && (!me || post.authorEmail.toLowerCase() !== me.toLowerCase())) return false;
  if (parsed.authors.length && !parsed.authors.some((author) => normalizeSearch(post.author).includes(author))) return false;
  if (parsed.categories.length) {
    const name = normalizeSearch(categoryName(post.category));
    if (!parsed.categories.some((category) => name.includes(category))) return false;
  }
  if (parsed.tags.length) {
    const tags = post.tags.map((tag) => normalizeSearch(tag).replace(/^#/u, ''));
    if (!parsed.tags.some((tag) => tags.includes(tag))) return false;
  }
  return true;
}

/** Whether normalized searchable text (title and content) holds the free text and every phrase. */
export function matchesText(normalizedText: string, parsed: ParsedQuery): boolean {
  if (parsed.text && !normalizedText.includes(parsed.text)) return false;
  return parsed.phrases.every((phrase) => normalizedText.includes(phrase));
}

/** A piece of text, marked when it is a match (the results' <mark>). */
export interface HighlightPart {
  text: string;
  match: boolean;
}

/**
 * `text` cut into parts, the occurrences of the free text and of each phrase marked
 * (case-insensitive; overlapping matches merged). Text is compared in NFC lower case; the parts
 * are slices of `text` as given, so nothing the member wrote changes.
 */
export function highlightParts(text: string, parsed: ParsedQuery): HighlightPart[] {
  const needles = [parsed.text, ...parsed.phrases].filter((needle) => needle.length > 0);
  if (!needles.length || !text) return [{ text, match: false }];
  const lower = text.normalize('NFC').toLowerCase();
  // Lower-casing can change lengths (rarely); mark nothing rather than a wrong slice.
  if (lower.length !== text.length) return [{ text, match: false }];
  const ranges: Array<[number, number]> = [];
  for (const needle of needles) {
    for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length)) ranges.push([at, at + needle.length]);
  }
  if (!ranges.length) return [{ text, match: false }];
  ranges.sort((a, b) => a[0] - b[0]);
  const parts: HighlightPart[] = [];
  let cursor = 0;
  let [start, end] = ranges[0]!;
  const flush = () => {
    if (start > cursor) parts.push({ text: text.slice(cursor, start), match: false });
    parts.push({ text: text.slice(start, end), match: true });
    cursor = end;
  };
  for (const [from, to] of ranges.slice(1)) {
    if (from <= end) end = Math.max(end, to);
    else {
      flush();
      [start, end] = [from, to];
    }
  }
  flush();
  if (cursor < text.length) parts.push({ text: text.slice(cursor), match: false });
  return parts;
}

/**
 * How a query reads in the results' summary (`1 result for “inter-rater agreement”`): its free
 * text, then each filter as its chip reads, each quoted once (a phrase's own quotes are its chip's).
 */
export function describeQuery(query: string): string {
  const parsed = parseQuery(query);
  const free = parsed.chips
    .reduce((rest, chip) => rest.replace(chip.raw, ' '), query)
    .replace(/\s+/gu, ' ')
    .trim();
  return [...(free ? [`“${free}”`] : []), ...parsed.chips.map((chip) => chip.label)].join(' · ');
}

/** Where a card's excerpt starts at the latest: a match past it would be clamped out of sight. */
const EXCERPT_LEAD = 60;
/** How much text before a match an excerpt that starts near it keeps. */
const EXCERPT_BEFORE = 30;

/**
 * The text a card shows for `text` (its content, plain): from the start, or, when the first match
 * of the query lies past the few lines a card shows, from a word shortly before it ("…we report
 * inter-rater agreement…"), so the match is on screen and marked.
 */
export function matchExcerpt(text: string, parsed: ParsedQuery | undefined): string {
  if (!parsed) return text;
  const parts = highlightParts(text, parsed);
  const first = parts.findIndex((part) => part.match);
  if (first < 0) return text;
  const at = parts.slice(0, first).reduce((length, part) => length + part.text.length, 0);
  if (at <= EXCERPT_LEAD) return text;
  const space = text.lastIndexOf(' ', at - EXCERPT_BEFORE);
  const start = space < 0 ? at - EXCERPT_BEFORE : space + 1;
  return `…${text.slice(start)}`;
}
