// Writes one generated section of bench/results.md in place, keeping every other section (the
// hand-written analysis beside the figures), and formats what it writes with the repository's
// Prettier settings, so a benchmark run never leaves `npm run lint` failing.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { format, resolveConfig } from 'prettier';

/** Writes `text` to `file` formatted as Markdown with the repository's Prettier settings. */
export async function writeFormatted(file, text) {
  const options = (await resolveConfig(file)) ?? {};
  writeFileSync(file, await format(text, { ...options, filepath: file }));
}

/**
 * Replaces the section `## heading` of `file` (up to the next `## ` heading) with `body`, or adds
 * it at the end; every other section stays as it is.
 */
export async function writeSection(file, heading, body) {
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n';
  const title = `## ${heading}`;
  const lines = current.split('\n');
  const start = lines.findIndex((line) => line.trim() === title);
  const section = [title, '', body.trim(), ''];
  if (start === -1) {
    await writeFormatted(file, `${current.trimEnd()}\n\n${section.join('\n')}`);
    return;
  }
  const next = lines.findIndex((line, index) => index > start && line.startsWith('## '));
  const after = next === -1 ? [] : lines.slice(next);
  await writeFormatted(file, [...lines.slice(0, start), ...section, ...after].join('\n'));
}
