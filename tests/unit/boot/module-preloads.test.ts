// @vitest-environment happy-dom
// The boot scripts' shared module preloads, and when the head leaves them to the snapshot script.
import { beforeEach, describe, expect, it } from 'vitest';
import { preloadModules, snapshotMayPaint } from '../../../src/boot/module-preloads';
import { MODULE_PRELOADS_ATTRIBUTE } from '../../../src/boot/home-prerender-names';
import { FORUM_SNAPSHOT_COOKIE } from '../../../src/db/contracts';

const token = `${FORUM_SNAPSHOT_COOKIE}=${'f'.repeat(32)}`;

describe('snapshotMayPaint', () => {
  it('is true only at a snapshot address with the snapshot cookie set', () => {
    expect(snapshotMayPaint('/forum', '', '', token)).toBe(true);
    expect(snapshotMayPaint('/posts/7', '', '', `theme=dark; ${token}`)).toBe(true);
    expect(snapshotMayPaint('/forum', '', '', '')).toBe(false);
    expect(snapshotMayPaint('/forum', '', '', `${FORUM_SNAPSHOT_COOKIE}=`)).toBe(false);
    expect(snapshotMayPaint('/forum', '', '', `x-${token}`)).toBe(false);
    expect(snapshotMayPaint('/forum', '?q=a', '', token)).toBe(false);
    expect(snapshotMayPaint('/forum', '', '#top', token)).toBe(false);
    for (const path of ['/', '/profile', '/posts/0', '/posts/7/edit']) expect(snapshotMayPaint(path, '', '', token), path).toBe(false);
  });
});

describe('preloadModules', () => {
  beforeEach(() => {
    document.head.innerHTML = '';
  });

  it("adds one modulepreload per module the head's boot script lists, in order, with its credentials mode", () => {
    const script = document.createElement('script');
    script.setAttribute(MODULE_PRELOADS_ATTRIBUTE, '/assets/index-A.js /assets/react-B.js');
    document.head.appendChild(script);
    preloadModules();
    const links = Array.from(document.head.querySelectorAll('link[rel="modulepreload"]'));
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/assets/index-A.js', '/assets/react-B.js']);
    expect(links.every((link) => link.getAttribute('crossorigin') === 'anonymous')).toBe(true);
  });

  it('adds nothing without the list (the dev server)', () => {
    preloadModules();
    expect(document.head.querySelectorAll('link')).toHaveLength(0);
  });
});
