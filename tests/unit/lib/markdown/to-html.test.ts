// Markdown to HTML (markdown-it, before the sanitizer): what renders, and what it never makes.
// DOMPurify needs a real DOM: the whole pipeline is checked in Chromium (tests/e2e/writing.spec.ts,
// with the hostile corpus of tests/e2e/support/hostile-markdown.ts).
import { describe, expect, it } from 'vitest';
import { isSafeHref, markdownToHtml } from '../../../../src/lib/markdown/to-html';

const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]!);

describe('markdownToHtml', () => {
  it('renders CommonMark with tables, fenced code, lists, quotes, emphasis and links', () => {
    const html = markdownToHtml(
      [
        '## Results',
        '',
        '**bold** *italic* ~~gone~~ `code`',
        '',
        '| Wave | Share |',
        '|:-----|------:|',
        '| 1 | 40% |',
        '',
        '```ts',
        'const x = 1 < 2;',
        '```',
        '',
        '- one',
        '- two',
        '',
        '3. third',
        '',
        '> quoted',
        '',
        '[site](https://example.com) and https://auto.example/x',
      ].join('\n'),
    );
    expect(html).toContain('<h4>Results</h4>');
    expect(html).toContain('<strong>bold</strong> <em>italic</em> <s>gone</s> <code>code</code>');
    expect(html).toContain('<th class="app-md-left">Wave</th>');
    expect(html).toContain('<td class="app-md-right">40%</td>');
    expect(html).toContain('<pre><code class="language-ts">const x = 1 &lt; 2;\n</code></pre>');
    expect(html).toContain('<ul>\n<li>one</li>\n<li>two</li>\n</ul>');
    expect(html).toContain('<ol start="3">');
    expect(html).toContain('<blockquote>\n<p>quoted</p>\n</blockquote>');
    expect(hrefs(html)).toEqual(['https://example.com', 'https://auto.example/x']);
    expect(html).not.toContain('style=');
  });

  it('keeps single line breaks, as plain-text posts had them', () => {
    expect(markdownToHtml('Line one\nLine two')).toBe('<p>Line one<br>\nLine two</p>\n');
  });

  it('shows raw HTML as text', () => {
    const html = markdownToHtml('<script>window.__x = 1</script>\n\n<b onclick="x()">b</b>');
    expect(html).not.toMatch(/<script|<b /);
    expect(html).toContain('&lt;script&gt;window.__x = 1&lt;/script&gt;');
  });

  it('never makes an image: a link to it, or its alt text when its address is unsafe', () => {
    const html = markdownToHtml('![chart](https://example.com/c.png) ![bad](javascript:alert(1)) ![](https://e.example/x.png)');
    expect(html).not.toContain('<img');
    expect(html).toContain('<a href="https://example.com/c.png" class="app-md-image">chart</a>');
    expect(html).toContain('<a href="https://e.example/x.png" class="app-md-image">https://e.example/x.png</a>');
    // An unsafe address is no link at all: the Markdown shows as it was typed.
    expect(html).toContain('![bad](javascript:alert(1))');
    expect(html).not.toContain('href="javascript');
  });

  it.each([
    '[x](javascript:alert(1))',
    '[x](JAVASCRIPT:alert(1))',
    '[x](&#106;avascript:alert(1))',
    '[x](&#x6A;avascript&colon;alert(1))',
    '[x](data:text/html;base64,PHNjcmlwdD4=)',
    '[x](vbscript:msgbox(1))',
    '[x](file:///etc/passwd)',
    '<javascript:alert(1)>',
    '[x][r]\n\n[r]: javascript:alert(1)',
    '[x](<javascript:alert(1)>)',
  ])('makes no unsafe link of %j', (source) => {
    for (const href of hrefs(markdownToHtml(source))) expect(isSafeHref(href.replace(/&amp;/g, '&')), href).toBe(true);
  });

  it('allows only http(s), mailto and relative addresses', () => {
    expect(['https://a.example', 'http://a', 'mailto:x@y.z', '/posts/1', '#top', '?q=1', 'page'].every(isSafeHref)).toBe(true);
    expect(
      ['javascript:x', 'data:x', 'vbscript:x', 'ftp://x', 'java\nscript:x', ' javascript:x', 'java\u0000script:x'].some(isSafeHref),
    ).toBe(false);
  });

  it('turns headings down two levels (the post title is the h1)', () => {
    expect(markdownToHtml('# One\n\n###### Six')).toBe('<h3>One</h3>\n<h6>Six</h6>\n');
  });

  it('renders 20,000 characters of nesting quickly', () => {
    const started = performance.now();
    for (const mark of ['>', '[', '*', '- ', '`', '(']) markdownToHtml(mark.repeat(20_000 / mark.length));
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
