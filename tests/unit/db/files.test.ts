// Files attached on the device (issue 42): what is taken as it is (by its extension: the server reads
// the bytes all the same), what is refused in words before anything is kept, and the keeping.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '../../../src/db/storage/schema';
import { makePost } from '../factories';
import { filesToUpload, forgetFiles, keepFile, markUploaded, prepareFile } from '../../../src/db/files/files';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('files attached on the device', () => {
  it('a file is named by the SHA-256 of its bytes, kept until sent, and sent once', async () => {
    const prepared = await prepareFile(new File(['wave,completes\n1,1204\n'], 'results.csv'));
    expect(prepared.attachment).toEqual({
      sha256: sha('wave,completes\n1,1204\n'),
      name: 'results.csv',
      mime: 'text/csv',
      size: 22,
      width: null,
      height: null,
    });
    await keepFile('member@example.com', prepared);
    expect((await filesToUpload([prepared.attachment.sha256])).map((file) => file.name)).toEqual(['results.csv']);
    await markUploaded(prepared.attachment.sha256);
    expect(await filesToUpload([prepared.attachment.sha256])).toEqual([]);
    // Attached again (the same bytes): one copy, still sent.
    await keepFile('member@example.com', prepared);
    expect(await db.files.count()).toBe(1);
    expect(await filesToUpload([prepared.attachment.sha256])).toEqual([]);
  });

  it('refuses, in words, a type the forum does not take, an empty file and one over 10 MB', async () => {
    await expect(prepareFile(new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' }))).rejects.toMatchObject({
      title: 'File type not accepted',
      message: expect.stringContaining('logo.svg: attach images'),
    });
    await expect(prepareFile(new File(['MZ'], 'setup.exe'))).rejects.toMatchObject({ title: 'File type not accepted' });
    await expect(prepareFile(new File([], 'empty.pdf'))).rejects.toMatchObject({ title: 'Empty file', message: 'empty.pdf is empty.' });
    await expect(prepareFile(new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'huge.pdf'))).rejects.toMatchObject({
      title: 'File too large',
      message: 'huge.pdf is 10.0 MB: a file can be at most 10 MB.',
    });
    expect(await db.files.count()).toBe(0);
  });

  it('a file removed before its post was sent is forgotten; one a post names is kept', async () => {
    const named = await prepareFile(new File(['%PDF-1.4 named'], 'named.pdf'));
    const removed = await prepareFile(new File(['%PDF-1.4 removed'], 'removed.pdf'));
    for (const file of [named, removed]) await keepFile('member@example.com', file);
    await db.posts.add({ ...makePost({ authorEmail: 'member@example.com', status: 'pending' }), attachments: [named.attachment] });
    await forgetFiles('member@example.com', [named.attachment.sha256, removed.attachment.sha256]);
    expect((await db.files.toArray()).map((file) => file.name)).toEqual(['named.pdf']);
  });
});
