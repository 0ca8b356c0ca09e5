// How deeply a JSON text nests, found in one pass over its characters before anything parses it:
// a megabyte of `[[[[…` costs the parser (and every walk of the result) far more than its size.

/** The deepest nesting any request body may have: every body the protocol defines nests 4 or 5 deep. */
export const MAX_JSON_DEPTH = 32;

/** True when `text` opens more than `max` arrays or objects inside one another (strings are skipped). */
export function nestsDeeperThan(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c)
        i += 1; // a backslash escapes the next character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if (char === 0x5d || char === 0x7d) depth -= 1;
  }
  return false;
}
