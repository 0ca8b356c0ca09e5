// The cards' plain text: Markdown marks go, ordinary text (arithmetic, snake_case, URLs) stays as written.
import { describe, expect, it } from 'vitest';
import { excerptText, plainText } from '../../../src/lib/plain-text';
import { clip } from '../../../src/lib/format';

describe('plainText keeps text that is not Markdown exactly as it is', () => {
  it.each([
    'A short note about sampling.',
    'We weighted by 5 * 3 cells, then 2 * 4 more.',
    'Use the column respondent_id and wave_2_score_final.',
    'Multiply 2*3*4 for the cell count.',
    'See https://example.com/a_b_c/__init__.py?x=*y*&z=_w_ for the file.',
    'Visit www.example.org/_private_ today',
    'C:\\Users\\jane\\survey.csv is the path',
    'Line one\nLine two\n\nA new paragraph, with    spaces kept.',
    'Price: $5 - $10 (about 20% off) & more <3',
    'Tags like #research and #AI stay.',
    '3 < 4 and 5 > 2',
    'Use __ or ** as placeholders',
    'A lone * star and a lone _ underscore.',
    'email me at jane_doe@example.com',
    '',
    'Unicode: café, 日本語, emoji 🎉 and RTL עברית',
  ])('%j', (text) => {
    expect(plainText(text)).toBe(text);
  });
});

describe('plainText removes Markdown marks', () => {
  it.each([
    ['**bold** and *italic*', 'bold and italic'],
    ['__bold__ and _italic_', 'bold and italic'],
    ['***both***', 'both'],
    ['**bold with _italic_ inside**', 'bold with italic inside'],
    ['~~struck~~ out', 'struck out'],
    ['A [link](https://example.com "title") here', 'A link here'],
    ['An image: ![the alt text](https://example.com/x.png)', 'An image: the alt text'],
    ['A [reference][1] link\n[1]: https://example.com', 'A reference link'],
    ['<https://example.com/page>', 'https://example.com/page'],
    ['Run `npm test` now', 'Run npm test now'],
    ['Code ``with ` tick`` here', 'Code with ` tick here'],
    ['`*not emphasis*` stays', '*not emphasis* stays'],
    ['# Heading\nText', 'Heading\nText'],
    ['### Third level ###', 'Third level'],
    ['> quoted\n> > nested', 'quoted\nnested'],
    ['```ts\nconst a_b = 1 * 2;\n```', 'const a_b = 1 * 2;'],
    ['~~~\n**kept**\n~~~', '**kept**'],
    ['Above\n\n---\n\nBelow', 'Above\n\n\nBelow'],
    ['| Name | Share |\n|:-----|------:|\n| A | **40%** |\n| B | 60% |', 'Name · Share\nA · 40%\nB · 60%'],
    ['Escaped \\*stars\\* and \\_underscores\\_', 'Escaped *stars* and _underscores_'],
    ['- **one**\n- two', '- one\n- two'],
    ['1. [first](https://a.example)', '1. first'],
  ])('%j', (source, expected) => {
    expect(plainText(source)).toBe(expected);
  });

  it('never returns markup: tags stay as their literal text', () => {
    expect(plainText('<script>alert(1)</script> **x**')).toBe('<script>alert(1)</script> x');
  });

  it('stays fast on huge and pathological input', () => {
    const started = performance.now();
    plainText('*a'.repeat(20_000));
    plainText('['.repeat(20_000));
    plainText('_'.repeat(20_000) + 'x');
    plainText('>'.repeat(20_000));
    plainText('**a '.repeat(10_000));
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe('a card’s excerpt (issue 40: no lone “…”, no “differ.…”)', () => {
  it('runs the lines together, blank lines and Markdown marks gone', () => {
    expect(excerptText('We saw **Panel B** speeders.\n\n| A | B |\n|---|---|\n| 1 | 2 |\n\nThe rates differ.\nMore below.')).toBe(
      'We saw Panel B speeders. A · B 1 · 2 The rates differ. More below.',
    );
  });

  it('clip drops spaces, line breaks and stops before its ellipsis, and never splits a surrogate pair', () => {
    expect(clip('The rates differ. More words follow', 18)).toBe('The rates differ…');
    expect(clip('First line\n\nSecond line', 12)).toBe('First line…');
    expect(clip('Short', 10)).toBe('Short');
    expect(clip('Emoji 😀 after', 7)).toBe('Emoji…');
    expect(clip('ab😀cd', 3)).toBe('ab…');
    expect(clip('....', 2)).toBe('..…');
  });
});
