// Markdown to HTML with markdown-it: CommonMark + tables, raw HTML shown as text, single line
// breaks kept, bare URLs linked. Its output still goes through the sanitizer (render.ts) before
// any page sees it. No DOM here, so it is unit-tested in Node.
import MarkdownIt, { type Token } from 'markdown-it';

const SAFE_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

/** True for an http(s) or mailto URL, or one relative to this site. */
export function isSafeHref(href: string): boolean {
  // Control characters and spaces never belong in an address (and hide schemes from a naive check).
  // eslint-disable-next-line no-control-regex -- the control characters are what is looked for
  if (/[\u0000-\u0020\u007f-\u009f\u2028\u2029]/u.test(href.trim())) return false;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(href.trim());
  if (!scheme) return true;
  return SAFE_SCHEMES.has(`${scheme[1]!.toLowerCase()}:`);
}

const markdown = new MarkdownIt('default', { html: false, linkify: true, breaks: true, typographer: false });
markdown.linkify.set({ fuzzyEmail: false });
markdown.validateLink = (url) => isSafeHref(url);

const ALIGN_CLASS: Record<string, string> = {
  'text-align:left': 'app-md-left',
  'text-align:center': 'app-md-center',
  'text-align:right': 'app-md-right',
};

// The post's title is the page's h1: headings inside a post start at h3. Table alignment becomes a
// class, not an inline style (which the CSP would refuse).
markdown.core.ruler.push('insight_exchange', (state) => {
  const visit = (tokens: Token[]) => {
    for (const token of tokens) {
      if ((token.type === 'heading_open' || token.type === 'heading_close') && /^h[1-6]$/.test(token.tag)) {
        token.tag = `h${Math.min(6, Number(token.tag.slice(1)) + 2)}`;
      }
      const style = token.attrGet('style');
      const styleText = style === null ? null : String(style);
      if (styleText !== null) {
        token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'style');
        const align = ALIGN_CLASS[styleText];
        if (align) token.attrJoin('class', align);
      }
      if (token.children) visit(token.children);
    }
  };
  visit(state.tokens);
});

// An image is never fetched: it shows as a link to it (its alt text, or its address), or as its
// alt text alone when its address is not a safe one.
markdown.renderer.rules.image = (tokens, index, options, env, self) => {
  const token = tokens[index]!;
  const alt = String(self.renderInlineAsText(token.children ?? [], options, env));
  const src = String(token.attrGet('src') ?? '');
  const text = markdown.utils.escapeHtml(alt || src);
  if (!src || !isSafeHref(src)) return text;
  return `<a href="${markdown.utils.escapeHtml(src)}" class="app-md-image">${text}</a>`;
};

/** The HTML markdown-it makes of `source`: not yet sanitized (renderMarkdown does that). */
export function markdownToHtml(source: string): string {
  return markdown.render(source);
}
