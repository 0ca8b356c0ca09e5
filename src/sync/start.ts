// Starts sync for this page, after the first paint (the app imports this module lazily): decides
// the mode and, on a connected device, loads and runs the engine (connected.ts). On a local-only
// device it does nothing more than one GET /api/health on the very first start.

import type { SyncEngine } from './engine';
import { detectMode } from './mode';
import { setSyncStatus } from './status';

let started: Promise<void> | undefined;
let running: SyncEngine | undefined;

/** The engine of this page once sync has started on a connected device (else undefined). */
export function getRunningEngine(): SyncEngine | undefined {
  return running;
}

async function run(): Promise<void> {
  if ((await detectMode()) === 'local') {
    setSyncStatus({ state: 'local' });
    return;
  }
  const { runConnected } = await import('./connected');
  await runConnected((engine) => {
    running = engine;
  });
}
/** True when this device is connected (asks the server on a device that never was). */
export async function isConnected(): Promise<boolean> {
  return (await detectMode()) === 'connected';
}

/** Starts sync once per page; later calls get the same promise. */
export function startSync(): Promise<void> {
  started ??= run().catch((error: unknown) => {
    console.warn('Insight Exchange could not start syncing', error);
  });
  return started;
}
