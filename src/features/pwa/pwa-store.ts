// The app's side of the service worker and of installation: registers /sw.js with workbox-window,
// notices a waiting update, checks for updates on focus and every hour, reloads every tab once
// when a new version takes over, and keeps the browser's install prompt for the Install button.

import { Workbox } from 'workbox-window';
import { reloadApp } from '../../components/reload';
import { SW_CLAIM_MESSAGE } from '../../db/contracts';

interface BeforeInstallPromptEvent extends Event {
  prompt: () => Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

export interface PwaState {
  /** A new version is installed and waiting for the user to reload. */
  updateWaiting: boolean;
  /** The first install finished: the app now works offline. */
  offlineReady: boolean;
  /** The browser offered installation (Chromium's beforeinstallprompt). */
  canInstall: boolean;
  installed: boolean;
}

const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;
/** How long Reload waits for the new version to take over (and reload every tab) before reloading this tab itself. */
export const UPDATE_TAKEOVER_MS = 5_000;

let state: PwaState = { updateWaiting: false, offlineReady: false, canInstall: false, installed: false };
const listeners = new Set<() => void>();
let workbox: Workbox | undefined;
let installEvent: BeforeInstallPromptEvent | undefined;

function set(patch: Partial<PwaState>): void {
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
}

export function getPwaState(): PwaState {
  return state;
}

export function subscribePwa(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Registers the service worker (production builds only) and starts watching for updates. */
let started = false;

export function startPwa(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    installEvent = event as BeforeInstallPromptEvent;
    set({ canInstall: true });
  });
  window.addEventListener('appinstalled', () => {
    installEvent = undefined;
    set({ canInstall: false, installed: true });
  });
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;

  workbox = new Workbox('/sw.js', { scope: '/' });
  let controlled = Boolean(navigator.serviceWorker.controller);
  // A new version took over (this tab pressed Reload, or another did): reload once to run it.
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (controlled) void reloadApp();
    controlled = true;
  });
  workbox.addEventListener('waiting', () => set({ updateWaiting: true }));
  workbox.addEventListener('installed', (event) => {
    if (!event.isUpdate) set({ offlineReady: true });
  });
  void workbox
    .register()
    .then((registration) => {
      if (!registration) return;
      // This page loaded outside the worker (its navigation began while the first install was
      // under way, so the install's claim skipped it, or a hard reload): ask the worker to claim it,
      // so it works offline without another load.
      void navigator.serviceWorker.ready.then((ready) => {
        if (!navigator.serviceWorker.controller) ready.active?.postMessage({ type: SW_CLAIM_MESSAGE });
      });
      const check = () => {
        if (navigator.onLine) void registration.update().catch(() => undefined);
      };
      setInterval(check, UPDATE_CHECK_INTERVAL_MS);
      window.addEventListener('focus', check);
      document.addEventListener('visibilitychange', () => {
        if (document.visibilityState === 'visible') check();
      });
    })
    .catch((error: unknown) => {
      // No service worker (blocked, or an unsupported context): the app still works online.
      console.warn('Service worker registration failed', error);
    });
}

/** Lets the waiting version take over; every open tab then reloads once. */
export function applyUpdate(): void {
  if (!workbox) return;
  workbox.messageSkipWaiting();
  // The takeover (controllerchange) reloads this tab within a second or so. Should it not come
  // (the waiting worker went already, or its activation is held up), Reload still reloads: the page
  // then loads from whichever version is in charge, and offers the update again if it still waits.
  setTimeout(() => void reloadApp(), UPDATE_TAKEOVER_MS);
}

/** Shows the browser's install dialog; resolves to whether the user accepted. */
export async function promptInstall(): Promise<boolean> {
  const event = installEvent;
  if (!event) return false;
  installEvent = undefined;
  set({ canInstall: false });
  await event.prompt();
  const choice = await event.userChoice;
  return choice.outcome === 'accepted';
}

/** iOS Safari has no install prompt: people add the app from the Share menu instead. */
export function isIosSafari(): boolean {
  if (typeof navigator === 'undefined') return false;
  const ua = navigator.userAgent;
  const ios = /iPad|iPhone|iPod/u.test(ua) || (navigator.platform === 'MacIntel' && navigator.maxTouchPoints > 1);
  const standalone = (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return ios && !standalone && /Safari/u.test(ua) && !/CriOS|FxiOS|EdgiOS/u.test(ua);
}
