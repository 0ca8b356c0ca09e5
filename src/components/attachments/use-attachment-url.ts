import { useEffect, useState } from 'react';
import { keptFile } from '../../db/files/files';

/** Where an attachment's bytes are fetched from on the server (its own path; the service worker keeps a bounded copy). */
export const attachmentPath = (sha256: string) => `/api/attachments/${sha256}`;

/** The files just attached on this page (the last few), shown from memory: no read back from IndexedDB before their preview. */
const justAttached = new Map<string, Blob>();
const JUST_ATTACHED_KEPT = 10;

/** Remembers a file just prepared and kept here, so its preview needs no read of IndexedDB. */
export function rememberAttached(sha256: string, blob: Blob): void {
  justAttached.delete(sha256);
  justAttached.set(sha256, blob);
  for (const oldest of justAttached.keys()) {
    if (justAttached.size <= JUST_ATTACHED_KEPT) break;
    justAttached.delete(oldest);
  }
}

/**
 * The address to show an attachment from: the copy this device keeps (a file attached here: shown
 * at once, before or without an upload) as an object URL, else the server's path when connected;
 * undefined while looking, null when neither has it (local-only, attached on another device).
 */
export function useAttachmentUrl(sha256: string, connected: boolean): string | null | undefined {
  const [url, setUrl] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    let objectUrl: string | undefined;
    let live = true;
    const inMemory = justAttached.get(sha256);
    (inMemory ? Promise.resolve({ blob: inMemory }) : keptFile(sha256))
      .catch(() => undefined)
      .then((row) => {
        if (!live) return;
        if (row) {
          objectUrl = URL.createObjectURL(row.blob);
          setUrl(objectUrl);
        } else setUrl(connected ? attachmentPath(sha256) : null);
      });
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [sha256, connected]);
  return url;
}
