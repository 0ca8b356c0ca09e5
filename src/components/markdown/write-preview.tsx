import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { FormattingHelp } from './formatting-help';
import { Markdown, preloadMarkdown } from './markdown';

type Tab = 'write' | 'preview';
const TABS: { key: Tab; name: string }[] = [
  { key: 'write', name: 'Write' },
  { key: 'preview', name: 'Preview' },
];

/** The event a textarea inside WritePreview sends to be shown (its Write tab chosen) before it is focused. */
const SHOW_WRITE_EVENT = 'app-show-write';

/**
 * Focuses a textarea that may sit in a hidden Write panel (Preview chosen): the Write tab is
 * chosen first, so the focus lands (a Quote, or a form's first mistake, while Preview shows).
 */
export function focusWriting(element: HTMLElement | null | undefined, options?: FocusOptions): void {
  if (!element) return;
  element.dispatchEvent(new Event(SHOW_WRITE_EVENT, { bubbles: true }));
  element.focus(options);
}

interface WritePreviewProps {
  /** The text the Preview tab shows rendered. */
  source: string;
  /** The Write tab's panel: the textarea and what goes with it. */
  children: ReactNode;
  /** Shown instead of an empty preview. */
  emptyText?: string;
}

/**
 * Write and Preview tabs around a Markdown textarea (the ARIA tabs pattern: arrows, Home and End
 * move between the tabs), and a "Formatting help" toggle with the Markdown a member can use.
 * The textarea stays in the page while Preview shows, so its text, draft and label stay.
 */
export function WritePreview({ source, children, emptyText = 'Nothing to preview yet.' }: WritePreviewProps) {
  const id = useId();
  const [tab, setTab] = useState<Tab>('write');
  const [help, setHelp] = useState(false);
  const tabs = useRef<Record<Tab, HTMLButtonElement | null>>({ write: null, preview: null });
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    void preloadMarkdown().catch(() => undefined);
  }, []);
  useEffect(() => {
    const element = root.current;
    // Synchronous, so that the caller's focus() right after finds the panel shown.
    const showWrite = () => flushSync(() => setTab('write'));
    element?.addEventListener(SHOW_WRITE_EVENT, showWrite);
    return () => element?.removeEventListener(SHOW_WRITE_EVENT, showWrite);
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = TABS.findIndex((item) => item.key === tab);
    const next =
      event.key === 'ArrowRight'
        ? TABS[(index + 1) % TABS.length]
        : event.key === 'ArrowLeft'
          ? TABS[(index + TABS.length - 1) % TABS.length]
          : event.key === 'Home'
            ? TABS[0]
            : event.key === 'End'
              ? TABS[TABS.length - 1]
              : undefined;
    if (!next) return;
    event.preventDefault();
    setTab(next.key);
    tabs.current[next.key]?.focus();
  };

  return (
    <div className="app-md-editor" ref={root}>
      <div className="app-md-toolbar">
        <div role="tablist" aria-label="Write or preview" className="app-md-tabs" onKeyDown={onKeyDown}>
          {TABS.map((item) => (
            <button
              key={item.key}
              ref={(element) => {
                tabs.current[item.key] = element;
              }}
              type="button"
              role="tab"
              id={`${id}-${item.key}-tab`}
              aria-selected={tab === item.key}
              aria-controls={`${id}-${item.key}`}
              tabIndex={tab === item.key ? 0 : -1}
              className={`app-md-tab${tab === item.key ? ' active' : ''}`}
              onClick={() => setTab(item.key)}
            >
              {item.name}
            </button>
          ))}
        </div>
        <button
          type="button"
          className="btn btn-link btn-sm app-md-help-toggle"
          aria-expanded={help}
          aria-controls={`${id}-help`}
          onClick={() => setHelp((open) => !open)}
        >
          Formatting help
        </button>
      </div>
      {help && <FormattingHelp id={`${id}-help`} onClose={() => setHelp(false)} />}
      <div role="tabpanel" id={`${id}-write`} aria-labelledby={`${id}-write-tab`} hidden={tab !== 'write'}>
        {children}
      </div>
      <div
        role="tabpanel"
        id={`${id}-preview`}
        aria-labelledby={`${id}-preview-tab`}
        hidden={tab !== 'preview'}
        tabIndex={0}
        className="app-md-preview"
      >
        {tab === 'preview' && (source.trim() ? <Markdown source={source} /> : <p className="text-body-secondary mb-0">{emptyText}</p>)}
      </div>
    </div>
  );
}
