import { useEffect, useMemo, useState, type MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import './markdown.scss';
import type * as RenderModule from '../../lib/markdown/render';

type Renderer = typeof RenderModule;

// The renderer (markdown-it and DOMPurify) is its own chunk, fetched the first time Markdown is
// shown or previewed (the post page, a preview), never with the forum; the service worker
// precaches it like every other chunk, so it works offline.
let loaded: Renderer | null = null;
let loading: Promise<Renderer> | null = null;

/** Starts loading the renderer (e.g. when a form that previews opens). */
export function preloadMarkdown(): Promise<Renderer> {
  loading ??= import('../../lib/markdown/render').then((module) => (loaded = module));
  return loading;
}

/**
 * Markdown as sanitized HTML, in a `div.app-markdown`. Until the renderer has loaded (once per
 * session), the text shows as it was written, so nothing is missing meanwhile.
 */
export function Markdown({ source, className = '' }: { source: string; className?: string }) {
  const [renderer, setRenderer] = useState<Renderer | null>(loaded);
  useEffect(() => {
    if (renderer) return;
    let live = true;
    preloadMarkdown().then(
      (module) => live && setRenderer(module),
      // Not loaded (e.g. offline before the app was cached): the plain text stays.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [renderer]);
  const html = useMemo(() => renderer?.renderMarkdown(source), [renderer, source]);
  const navigate = useNavigate();
  // A mention opens the member's page in the app (a plain click; a modified one is the browser's).
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const link = event.target instanceof Element ? event.target.closest('a.app-mention') : null;
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void navigate(link.getAttribute('href')!);
  };
  if (html === undefined) return <div className={`app-markdown is-plain ${className}`}>{source}</div>;
  // The HTML comes from renderMarkdown: markdown-it with raw HTML off, then DOMPurify.
  return <div className={`app-markdown ${className}`} onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />;
}
