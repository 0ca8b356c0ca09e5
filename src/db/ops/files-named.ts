// The files an operation names (issue 42): what the push uploads first, and what a refused post's draft gets back.
import type { Op } from '../../shared/protocol';

/** The addresses of the files an operation names (a new post's or reply's attachments). */
export function filesNamedBy(op: Op): string[] {
  if (op.type !== 'create' && op.type !== 'reply') return [];
  const list = op.type === 'create' ? (op.post as { attachments?: unknown }).attachments : op.attachments;
  return Array.isArray(list)
    ? list.flatMap((item) => {
        const sha256 = item !== null && typeof item === 'object' ? (item as { sha256?: unknown }).sha256 : undefined;
        return typeof sha256 === 'string' ? [sha256] : [];
      })
    : [];
}
