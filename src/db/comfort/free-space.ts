// Free up space: drop what the member does not need from this device, and get it back.

/** Removes old approved posts the member neither saved, wrote nor has in the outbox (the newest 50 stay). */
export async function freeUpSpace(_email: string): Promise<{ removed: number }> {
  return { removed: 0 };
}

/** True after freeUpSpace, or while a connected device's first sync has not finished. */
export async function holdsPart(): Promise<boolean> {
  return false;
}

/** Connected: pulls the whole forum again; clears "holds part" when done. */
export async function downloadWholeForum(): Promise<void> {
  throw new Error('not yet');
}
