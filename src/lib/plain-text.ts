// Markdown as plain text, for the clamped previews of cards and search results. Its output is
// React text, never HTML. It is deliberately small and conservative (no parser: markdown-it stays
// out of the forum's first download): it removes only marks that are clearly Markdown, so a post
// written before Markdown (with "5 * 3", snake_case names or URLs) reads exactly as it did.

/** How much of a post is looked at: cards show far less, and the work stays small on huge posts. */
const MAX_SOURCE_CHARS = 4_000;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}#{1,6}(?:[ \t]+|$)/;
const CLOSING_HASHES = /[ \t]+#+[ \t]*$/;
const QUOTE = /^ {0,3}>[ \t]?/;
const RULE = /^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]\n]+\]:[ \t]*\S+/;
const TABLE_DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)+\|?[ \t]*$|^ {0,3}\|[ \t]*:?-+:?[ \t]*\|[ \t]*$/;

// Inline marks. An emphasis opens after the start or a character that is not a letter or digit
// and closes before one (so snake_case_names and 2*3*4 stay), with no space just inside.
const IMAGE = /!\[([^\]\n]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"\n]*")?\)/g;
const LINK = /\[([^\]\n]+)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"\n]*")?\)/g;
const REFERENCE_LINK = /\[([^\]\n]+)\]\[[^\]\n]*\]/g;
const AUTOLINK = /<((?:https?:\/\/|mailto:)[^\s<>]+)>/gi;
const STRONG = /(^|[^\p{L}\p{N}*_\\])(\*\*|__)(?=\S)(.+?)(?<=\S)\2(?![\p{L}\p{N}*_])/gu;
const EMPHASIS = /(^|[^\p{L}\p{N}*_\\])([*_])(?=[^\s*_])(.+?)(?<=[^\s*_\\])\2(?![\p{L}\p{N}*_])/gu;
const STRIKE = /(^|[^~\\])~~(?=\S)(.+?)(?<=\S)~~(?!~)/g;
const ESCAPE = /\\([\\`*_{}[\]()#+\-.!|~>])/g;
// Pieces whose text is left exactly as written: code spans, and bare URLs (their _ and * are not marks).
const CODE_SPAN = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g;
const BARE_URL = /\b(?:https?:\/\/|www\.)[^\s<>()]+(?:\([^\s<>()]*\)[^\s<>()]*)*/g;

/** `text` with `transform` applied between the matches of `verbatim`, which keep their `keep` text. */
function around(text: string, verbatim: RegExp, keep: (match: RegExpExecArray) => string, transform: (part: string) => string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(verbatim)) {
    out += transform(text.slice(last, match.index)) + keep(match);
    last = match.index + match[0].length;
  }
  return out + transform(text.slice(last));
}

/** One line's inline marks removed; code spans keep their text, URLs stay whole. */
function inlineText(line: string): string {
  return around(line, CODE_SPAN, (match) => (match[2] ?? '').replace(/^ (.*) $/, '$1'), inlineMarks);
}

function inlineMarks(text: string): string {
  if (!/[*_~[\]<\\!]/.test(text)) return text;
  const linkless = text.replace(IMAGE, '$1').replace(LINK, '$1').replace(REFERENCE_LINK, '$1').replace(AUTOLINK, '$1');
  return around(linkless, BARE_URL, (match) => match[0], emphasis);
}

function emphasis(text: string): string {
  let result = text.replace(STRIKE, '$1$2');
  // Twice each: strong inside emphasis and the other way round.
  for (let pass = 0; pass < 2; pass += 1) result = result.replace(STRONG, '$1$3').replace(EMPHASIS, '$1$3');
  return result.replace(ESCAPE, '$1');
}

function tableRow(line: string): string {
  const cells = line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => inlineText(cell.trim()));
  return cells.join(' · ');
}

/**
 * The text of Markdown `source` without its marks: headings, quotes, emphasis, links (their
 * text), images (their alt text), code (its text), fences, rules and tables (cells joined by " · ").
 * Line breaks are kept. Text that is not clearly Markdown is returned as it is.
 */
export function plainText(source: string): string {
  const lines = source.slice(0, MAX_SOURCE_CHARS).split('\n');
  const out: string[] = [];
  let fence: string | null = null;
  let inTable = false;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    const opening = FENCE.exec(line);
    if (fence !== null) {
      if (opening && opening[1]!.startsWith(fence) && line.trim() === opening[1]) fence = null;
      else out.push(line);
      continue;
    }
    if (opening) {
      fence = opening[1]!;
      continue;
    }
    if (inTable && line.includes('|')) {
      out.push(tableRow(line));
      continue;
    }
    inTable = false;
    if (line.includes('|') && TABLE_DELIMITER.test(lines[index + 1] ?? '')) {
      inTable = true;
      out.push(tableRow(line));
      index += 1;
      continue;
    }
    if (RULE.test(line) || REFERENCE_DEFINITION.test(line)) continue;
    let text = line;
    while (QUOTE.test(text)) text = text.replace(QUOTE, '');
    if (HEADING.test(text)) text = text.replace(HEADING, '').replace(CLOSING_HASHES, '');
    out.push(inlineText(text));
  }
  return out.join('\n');
}

/** The text of a card's excerpt: plainText with its lines run together (one space between them). */
export function excerptText(source: string): string {
  return plainText(source)
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join(' ');
}
