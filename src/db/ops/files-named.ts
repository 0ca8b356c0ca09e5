// The files an operation names (issue 42): what the push uploads first, and what a refused post's draft gets back.
import type { Op } from '../../shared/protocol';
import type { Attachment } from '../../shared/attachments';
import { definitionOf } from '../../shared/ops/registry';
import { db } from '../storage/schema';

/** The addresses of the files an operation names (a new post's or reply's attachments: its definition's `files`). */
export function filesNamedBy(op: Op): string[] {
  const definition = definitionOf(op.type) as { files?: (op: Op) => readonly string[] } | undefined;
  return definition?.files ? [...definition.files(op)] : [];
}

/** Each file of `wanted` as this device keeps it (type, size, pixels), named as `wanted` names it (else as kept); undefined where it keeps none. */
export async function keptAttachments(wanted: readonly Pick<Attachment, 'sha256' | 'name'>[]): Promise<(Attachment | undefined)[]> {
  const rows = await db.files.bulkGet(wanted.map((file) => file.sha256));
  return rows.map((row, index) => {
    if (!row) return undefined;
    const { sha256, mime, size, width, height } = row;
    return { sha256, name: wanted[index]!.name || row.name, mime, size, width, height };
  });
}
