import { useEffect, useState } from 'react';
import { keptFile } from '../../db/files/files';

/** Where an attachment's bytes are fetched from on the server (its own path; the service worker keeps a bounded copy). */
export const attachmentPath = (sha256: string) => `/api/attachments/${sha256}`;

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
    keptFile(sha256)
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
