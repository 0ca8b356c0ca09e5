// The vocabulary is the one home of every refusal sentence: each appears once in src/ and server/
// (tests may repeat them), and every code the server may send has its HTTP status.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERRORS, WIRE_ERROR_CODES } from '../../../src/shared/errors';
import * as attachments from '../../../src/shared/attachments';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|js)$/.test(name) ? [path] : [];
  });
}

const sources = [...sourceFiles('src'), ...sourceFiles('server')].map((path) => ({ path, text: readFileSync(path, 'utf8') }));

// A sentence that names an attachment limit or the accepted types takes them from src/shared/attachments.ts
// (issue 60, item 4): it is written once as a template, `${MAX_FILE_WORDS}` where a person reads "10 MB".
const WORDS = Object.entries(attachments).filter(([name]) => name.endsWith('_WORDS')) as [string, string][];
const asWritten = (message: string) => WORDS.reduce((text, [name, words]) => text.replaceAll(words, `\${${name}}`), message);

describe('the refusal vocabulary', () => {
  it.each(Object.entries(ERRORS).map(([code, entry]) => [code, entry.message]))('%s: its sentence is written once', (_code, message) => {
    const places = sources
      .filter((source) => source.text.includes(message) || source.text.includes(asWritten(message)))
      .map((source) => source.path);
    expect(places).toEqual([join('src', 'shared', 'errors.ts')]);
  });

  it('the input rules’ sentences are written once too', () => {
    for (const [sentence, file] of [
      ['Please enter email and password.', 'account-rules.ts'],
      ['Please fill all fields.', 'account-rules.ts'],
      ['Please fill in both title and content for your post.', 'validation.ts'],
    ] as const) {
      expect(sources.filter((source) => source.text.includes(sentence)).map((source) => source.path)).toEqual([
        join('src', 'shared', file),
      ]);
    }
  });

  it('every code the server may send has its status; the device-only ones have none', () => {
    expect(WIRE_ERROR_CODES.length).toBeGreaterThan(20);
    for (const code of WIRE_ERROR_CODES) expect(ERRORS[code]).toHaveProperty('status');
    expect(WIRE_ERROR_CODES).not.toContain('offline');
    expect(WIRE_ERROR_CODES).not.toContain('storage_full');
  });
});
