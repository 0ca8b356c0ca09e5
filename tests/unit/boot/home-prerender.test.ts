// @vitest-environment happy-dom
// The prerendered home page's boot pieces: where it may show (the head script), the module preloads
// it defers on `/`, and how the app removes it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIRST_PAINT_MAX_MS } from '../../../src/boot/first-paint';
import { bootHomePrerender, showsHomePrerender } from '../../../src/boot/home-prerender-head';
import { handlePrerenderedClick } from '../../../src/boot/home-prerender-menu';
import { prerenderedMenuOpen, releaseHiddenHomePrerender, releaseHomePrerender } from '../../../src/boot/home-prerender-app';
import { HOME_PRERENDER_ID, HOME_PRERENDER_OFF_CLASS, MODULE_PRELOADS_ATTRIBUTE } from '../../../src/boot/home-prerender-names';
import { FORUM_SNAPSHOT_COOKIE } from '../../../src/db/contracts';
import { THEME_COOKIE } from '../../../src/shared/theme';

const root = document.documentElement;
const preloads = () =>
  Array.from(document.head.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')).map((link) => link.getAttribute('href'));

function bootScript(modules = '/assets/index-A.js /assets/react-B.js'): HTMLScriptElement {
  const script = document.createElement('script');
  script.setAttribute(MODULE_PRELOADS_ATTRIBUTE, modules);
  document.head.appendChild(script);
  return script;
}

beforeEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = `<div id="${HOME_PRERENDER_ID}"><main>Home</main></div><div id="root"></div>`;
  root.className = '';
});

afterEach(() => {
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

describe('showsHomePrerender', () => {
  it('shows it on / only', () => {
    expect(showsHomePrerender('/', '')).toBe(true);
    for (const path of ['/about', '/login', '/forum', '/posts/3', '/index.html', '//'])
      expect(showsHomePrerender(path, ''), path).toBe(false);
  });

  it("not to a browser whose cookies say a member signs in here (their page differs from a visitor's)", () => {
    expect(showsHomePrerender('/', `${THEME_COOKIE}=dark`)).toBe(false);
    expect(showsHomePrerender('/', `other=1; ${FORUM_SNAPSHOT_COOKIE}=${'a'.repeat(32)}`)).toBe(false);
    // An emptied cookie, or one whose name merely ends the same, is no member's.
    expect(showsHomePrerender('/', `${THEME_COOKIE}=; x-${FORUM_SNAPSHOT_COOKIE}=1`)).toBe(true);
  });
});

describe('bootHomePrerender (the head script)', () => {
  it('off /: hides the prerendered page and preloads the modules at once, entry first', () => {
    window.history.replaceState(null, '', '/about');
    bootScript();
    bootHomePrerender();
    expect(root.classList.contains(HOME_PRERENDER_OFF_CLASS)).toBe(true);
    expect(preloads()).toEqual(['/assets/index-A.js', '/assets/react-B.js']);
    expect(document.head.querySelector('link[rel="modulepreload"]')?.getAttribute('crossorigin')).toBe('anonymous');
  });

  it('on /: leaves it shown and preloads the modules only once its first contentful paint is on screen', () => {
    const observers: { callback: PerformanceObserverCallback; options?: PerformanceObserverInit }[] = [];
    vi.stubGlobal(
      'PerformanceObserver',
      class {
        constructor(callback: PerformanceObserverCallback) {
          observers.push({ callback });
        }
        observe(options: PerformanceObserverInit) {
          observers.at(-1)!.options = options;
        }
        disconnect() {}
      },
    );
    const entries = (names: string[]) =>
      ({ getEntriesByName: (name: string) => names.filter((n) => n === name) }) as unknown as PerformanceObserverEntryList;
    vi.useFakeTimers();
    try {
      bootScript();
      bootHomePrerender();
      expect(root.classList.contains(HOME_PRERENDER_OFF_CLASS)).toBe(false);
      expect(preloads()).toEqual([]);
      expect(observers.map((observer) => observer.options)).toEqual([{ type: 'paint', buffered: true }]);
      const [{ callback }] = observers as [{ callback: PerformanceObserverCallback }];
      // The first paint (not yet contentful) starts nothing.
      callback(entries(['first-paint']), { disconnect: () => undefined } as PerformanceObserver);
      expect(preloads()).toEqual([]);
      callback(entries(['first-contentful-paint']), { disconnect: () => undefined } as PerformanceObserver);
      expect(preloads()).toEqual(['/assets/index-A.js', '/assets/react-B.js']);
      // Once only: the safety timeout adds nothing more.
      vi.runAllTimers();
      expect(preloads()).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('on /: preloads them anyway after FIRST_PAINT_MAX_MS when no paint comes (a background tab)', () => {
    vi.stubGlobal(
      'PerformanceObserver',
      class {
        observe() {}
        disconnect() {}
      },
    );
    vi.useFakeTimers();
    try {
      bootScript();
      bootHomePrerender();
      vi.advanceTimersByTime(FIRST_PAINT_MAX_MS - 1);
      expect(preloads()).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(preloads()).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('where a snapshot may paint (its address, its cookie): leaves the preloads to forum-snapshot.ts', () => {
    const token = `${FORUM_SNAPSHOT_COOKIE}=${'a'.repeat(32)}`;
    document.cookie = `${token}; path=/`;
    try {
      for (const path of ['/forum', '/posts/12']) {
        window.history.replaceState(null, '', path);
        document.head.innerHTML = '';
        bootScript();
        bootHomePrerender();
        expect(preloads(), path).toEqual([]);
        expect(root.classList.contains(HOME_PRERENDER_OFF_CLASS), path).toBe(true);
      }
      // An address no snapshot is kept for: at once, as before.
      for (const path of ['/forum?q=panel', '/profile']) {
        window.history.replaceState(null, '', path);
        document.head.innerHTML = '';
        bootScript();
        bootHomePrerender();
        expect(preloads(), path).toHaveLength(2);
      }
    } finally {
      document.cookie = `${FORUM_SNAPSHOT_COOKIE}=; path=/; max-age=0`;
    }
  });

  it('preloads nothing without a list (the dev server)', () => {
    window.history.replaceState(null, '', '/forum');
    bootHomePrerender();
    expect(preloads()).toEqual([]);
    expect(root.classList.contains(HOME_PRERENDER_OFF_CLASS)).toBe(true);
  });
});

describe("the app's side", () => {
  it('removes the hidden page at start off /, and leaves the shown one on / to the home page', () => {
    releaseHiddenHomePrerender();
    expect(document.getElementById(HOME_PRERENDER_ID)).not.toBeNull();
    releaseHomePrerender();
    expect(document.getElementById(HOME_PRERENDER_ID)).toBeNull();

    document.body.innerHTML = `<div id="${HOME_PRERENDER_ID}"></div><div id="root"></div>`;
    window.history.replaceState(null, '', '/login');
    root.classList.add(HOME_PRERENDER_OFF_CLASS);
    releaseHiddenHomePrerender();
    expect(document.getElementById(HOME_PRERENDER_ID)).toBeNull();
    expect(root.classList.contains(HOME_PRERENDER_OFF_CLASS)).toBe(false);
  });

  it('removes it on / too where the head script hid it (a member)', () => {
    root.classList.add(HOME_PRERENDER_OFF_CLASS);
    releaseHiddenHomePrerender();
    expect(document.getElementById(HOME_PRERENDER_ID)).toBeNull();
  });

  it("keeps the focused control: focus on the prerendered page moves to the app's same one", () => {
    const header = (where: string) =>
      `<nav><a href="/login">Login</a><button aria-label="Menu">x</button></nav><main><a href="/login">Login</a><a href="/about">About</a></main>${where}`;
    document.body.innerHTML = `<div id="${HOME_PRERENDER_ID}">${header('')}</div><div id="root">${header('<p>live</p>')}</div>`;
    const [, secondLogin] = Array.from(document.querySelectorAll<HTMLElement>(`#${HOME_PRERENDER_ID} a[href="/login"]`));
    secondLogin!.focus();
    releaseHomePrerender();
    // The second Login (the page's, not the header's) of the app's page.
    expect(document.activeElement).toBe(document.querySelectorAll('#root a[href="/login"]')[1]);

    document.body.innerHTML = `<div id="${HOME_PRERENDER_ID}">${header('')}</div><div id="root">${header('')}</div>`;
    document.querySelector<HTMLElement>(`#${HOME_PRERENDER_ID} button`)!.focus();
    releaseHomePrerender();
    expect(document.activeElement).toBe(document.querySelector('#root button'));

    // Focus elsewhere stays where it is.
    document.body.innerHTML = `<input id="elsewhere"><div id="${HOME_PRERENDER_ID}">${header('')}</div><div id="root">${header('')}</div>`;
    document.querySelector<HTMLElement>('#elsewhere')!.focus();
    releaseHomePrerender();
    expect(document.activeElement?.id).toBe('elsewhere');
  });
});

describe("the prerendered header's Menu (a phone's, before the app takes over)", () => {
  beforeEach(() => document.addEventListener('click', handlePrerenderedClick));
  afterEach(() => document.removeEventListener('click', handlePrerenderedClick));

  const menuPage = () => {
    const nav = (open: boolean) =>
      `<nav><button type="button" class="navbar-toggler collapsed" aria-controls="public-nav" aria-expanded="false" aria-label="Menu"><span class="navbar-toggler-icon"></span></button><div class="collapse navbar-collapse${open ? ' show' : ''}" id="public-nav"><a href="/about">About Us</a></div></nav>`;
    document.body.innerHTML = `<div id="${HOME_PRERENDER_ID}">${nav(false)}</div><div id="root">${nav(false)}</div>`;
  };
  const prerendered = (selector: string) => document.querySelector(`#${HOME_PRERENDER_ID} ${selector}`)!;

  it('opens and closes its menu on /, as the app will, and says so', () => {
    menuPage();
    expect(prerenderedMenuOpen('public-nav')).toBe(false);
    prerendered('.navbar-toggler-icon').dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(prerendered('#public-nav').classList.contains('show')).toBe(true);
    expect(prerendered('.navbar-toggler').getAttribute('aria-expanded')).toBe('true');
    expect(prerendered('.navbar-toggler').classList.contains('collapsed')).toBe(false);
    expect(prerenderedMenuOpen('public-nav')).toBe(true);
    expect(prerenderedMenuOpen('forum-nav')).toBe(false);

    prerendered('.navbar-toggler').dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(prerendered('#public-nav').classList.contains('show')).toBe(false);
    expect(prerendered('.navbar-toggler').getAttribute('aria-expanded')).toBe('false');
    expect(prerendered('.navbar-toggler').classList.contains('collapsed')).toBe(true);
  });

  it("leaves the app's own Menu to the app, and says closed once the prerendered page is gone", () => {
    menuPage();
    document.querySelector('#root .navbar-toggler')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(document.querySelector('#root #public-nav')!.classList.contains('show')).toBe(false);
    prerendered('.navbar-toggler').dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(prerenderedMenuOpen('public-nav')).toBe(true);
    releaseHomePrerender();
    expect(prerenderedMenuOpen('public-nav')).toBe(false);
  });

  it("keeps the prerendered page's links to # where they are, and leaves other links and the app's to the browser", () => {
    document.body.innerHTML = `<div id="${HOME_PRERENDER_ID}"><a id="social" href="#" aria-label="Insight Exchange on X"><svg></svg></a><a id="about" href="/about">About Us</a></div><div id="root"><a id="app-social" href="#">X</a></div>`;
    const click = (selector: string) => {
      const event = new MouseEvent('click', { bubbles: true, cancelable: true });
      document.querySelector(selector)!.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(click('#social svg')).toBe(true);
    expect(click('#about')).toBe(false);
    expect(click('#app-social')).toBe(false);
  });
});
