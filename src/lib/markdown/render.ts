// Markdown to safe HTML for posts and replies: markdown-it (to-html.ts), then DOMPurify. Loaded on
// demand (components/markdown): never in the forum's first download. Nothing it returns can run
// script, load a resource or style the page: no images (an image becomes a link to it), no inline
// styles (the CSP forbids them), links only to http(s), mailto or this site, each opening in a new
// tab with rel="nofollow ugc noopener noreferrer".
import DOMPurify from 'dompurify';
import { isSafeHref, markdownToHtml } from './to-html';

/** What a rendered link carries. */
export const LINK_REL = 'nofollow ugc noopener noreferrer';

const ALLOWED_TAGS = [
  'a',
  'blockquote',
  'br',
  'code',
  'del',
  'em',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'li',
  'ol',
  'p',
  'pre',
  's',
  'strong',
  'table',
  'tbody',
  'td',
  'th',
  'thead',
  'tr',
  'ul',
];
const ALLOWED_ATTR = ['href', 'title', 'start', 'class', 'rel', 'target'];
const FORBID_TAGS = ['img', 'iframe', 'style', 'script', 'svg', 'math', 'form', 'input', 'object', 'embed', 'base', 'meta', 'link'];

/** A member's page, as a mention links it (shared/mentions.ts). */
const MENTION_HREF = /^\/members\/[0-9a-f]{16}$/u;

const purifier = DOMPurify(window);
purifier.addHook('uponSanitizeAttribute', (_node, data) => {
  // No event handler or style survives, whatever the allow-list says.
  if (/^on/i.test(data.attrName) || data.attrName.toLowerCase() === 'style') data.keepAttr = false;
});
purifier.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName !== 'A') return;
  const href = node.getAttribute('href');
  if (href === null || !isSafeHref(href)) node.removeAttribute('href');
  // A mention (issue 42): a member's page of this site, opened in the app itself.
  if (href !== null && MENTION_HREF.test(href)) {
    node.setAttribute('class', 'app-mention');
    node.removeAttribute('target');
    return;
  }
  node.setAttribute('rel', LINK_REL);
  node.setAttribute('target', '_blank');
});

/**
 * The safe HTML of a post's or reply's Markdown. Each table is wrapped in a region that scrolls
 * sideways (focusable, so a keyboard can scroll it too): a wide table never widens the page nor is
 * squeezed into columns a word wide.
 */
export function renderMarkdown(source: string): string {
  const html = markdownToHtml(source);
  const fragment = purifier.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    FORBID_TAGS,
    FORBID_ATTR: ['style'],
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
    RETURN_DOM_FRAGMENT: true,
  });
  const tables = [...fragment.querySelectorAll('table')];
  tables.forEach((table, index) => {
    const region = document.createElement('div');
    region.className = 'app-md-table';
    region.tabIndex = 0;
    region.setAttribute('role', 'region');
    region.setAttribute('aria-label', tables.length > 1 ? `Table ${index + 1}` : 'Table');
    table.replaceWith(region);
    region.append(table);
  });
  const out = document.createElement('div');
  out.append(fragment);
  return out.innerHTML;
}
