// @vitest-environment happy-dom
// The colour mode as the head's boot script and the app apply it: the member's theme from the
// cookie, System resolved through prefers-color-scheme, and what the page carries for each mode.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyColorMode, MANIFESTS, themeFromCookie } from '../../../src/boot/color-mode';
import { THEME_COLORS, THEME_COOKIE } from '../../../src/shared/theme';
import { sharedDraft, withShared } from '../../../src/pages/share';

function prefersDark(dark: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: dark && query === '(prefers-color-scheme: dark)' }));
}

beforeEach(() => {
  document.head.innerHTML =
    '<meta name="theme-color" content="#3b32b8"><meta name="color-scheme" content="light"><link rel="manifest" href="/manifest.webmanifest">';
  document.documentElement.removeAttribute('data-bs-theme');
});

afterEach(() => {
  vi.unstubAllGlobals();
  document.cookie = `${THEME_COOKIE}=; path=/; max-age=0`;
});

describe('themeFromCookie', () => {
  it('reads the member theme, and System without a cookie or with a value it does not know', () => {
    expect(themeFromCookie()).toBe('system');
    document.cookie = `${THEME_COOKIE}=dark; path=/`;
    expect(themeFromCookie()).toBe('dark');
    document.cookie = `${THEME_COOKIE}=sepia; path=/`;
    expect(themeFromCookie()).toBe('system');
  });
});

describe('applyColorMode', () => {
  it('draws System as the device prefers, and Light or Dark whatever it prefers', () => {
    prefersDark(true);
    expect(applyColorMode('system')).toBe('dark');
    expect(applyColorMode('light')).toBe('light');
    prefersDark(false);
    expect(applyColorMode('system')).toBe('light');
    expect(applyColorMode('dark')).toBe('dark');
  });

  it('sets data-bs-theme, color-scheme, the theme colour and the manifest of the mode', () => {
    prefersDark(false);
    applyColorMode('dark');
    const root = document.documentElement;
    expect(root.getAttribute('data-bs-theme')).toBe('dark');
    expect(root.style.colorScheme).toBe('dark');
    expect(document.querySelector('meta[name="theme-color"]')!.getAttribute('content')).toBe(THEME_COLORS.dark.theme);
    expect(document.querySelector('meta[name="color-scheme"]')!.getAttribute('content')).toBe('dark');
    expect(document.querySelector('link[rel="manifest"]')!.getAttribute('href')).toBe(MANIFESTS.dark);
    applyColorMode('light');
    expect(root.getAttribute('data-bs-theme')).toBe('light');
    expect(document.querySelector('meta[name="theme-color"]')!.getAttribute('content')).toBe(THEME_COLORS.light.theme);
    expect(document.querySelector('link[rel="manifest"]')!.getAttribute('href')).toBe('/manifest.webmanifest');
  });
});

describe('sharedDraft (share_target)', () => {
  it('takes the title as the title and the text then the link as the content', () => {
    expect(sharedDraft(new URLSearchParams({ title: ' A paper ', text: 'Worth a read.', url: 'https://example.com/p' }))).toEqual({
      title: 'A paper',
      content: 'Worth a read.\n\nhttps://example.com/p',
    });
    expect(sharedDraft(new URLSearchParams({ url: 'https://example.com/p' }))).toEqual({ title: '', content: 'https://example.com/p' });
  });

  it('is nothing when nothing was shared (the New Post shortcut)', () => {
    expect(sharedDraft(new URLSearchParams())).toBeNull();
    expect(sharedDraft(new URLSearchParams({ title: '  ', text: '' }))).toBeNull();
  });
});

describe('withShared (a share into an unsent draft)', () => {
  const shared = { title: 'A paper', content: 'Worth a read.\n\nhttps://example.com/p' };
  it('is the shared draft when there is none (or an empty one)', () => {
    expect(withShared(null, shared)).toEqual({ ...shared, category: 'Quantitative' });
    expect(withShared({ title: ' ', content: '', category: 'Trends', savedAt: 1 }, shared)).toEqual({ ...shared, category: 'Trends' });
  });
  it('adds to an unsent draft: its title and category kept, the shared text after its text', () => {
    expect(withShared({ title: 'My notes', content: 'Half written.\n', category: 'Trends', savedAt: 1 }, shared)).toEqual({
      title: 'My notes',
      content: 'Half written.\n\nWorth a read.\n\nhttps://example.com/p',
      category: 'Trends',
    });
    expect(withShared({ title: '', content: 'Only text.', category: 'Trends', savedAt: 1 }, shared).title).toBe('A paper');
  });
});
