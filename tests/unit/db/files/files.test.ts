// Files attached on the device (issue 42): what is taken as it is (by its extension: the server reads
// the bytes all the same), what is refused in words before anything is kept, and the keeping.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '../../../../src/db/storage/schema';
import { filesToUpload, keepFile, markUploaded, prepareFile, UPLOAD_AGAIN_AFTER_MS } from '../../../../src/db/files/files';

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
    const { sha256 } = prepared.attachment;
    expect((await filesToUpload('member@example.com', [sha256])).map((file) => file.name)).toEqual(['results.csv']);
    await markUploaded(sha256, 'member@example.com', 1_000);
    expect(await filesToUpload('member@example.com', [sha256], 2_000)).toEqual([]);
    // Attached again (the same bytes): one copy, still sent.
    await keepFile('member@example.com', prepared);
    expect(await db.files.count()).toBe(1);
    expect(await filesToUpload('member@example.com', [sha256], 2_000)).toEqual([]);
    // Sent long ago (the server may have collected it since), or for another member: sent again.
    expect(await filesToUpload('member@example.com', [sha256], 1_000 + UPLOAD_AGAIN_AFTER_MS + 1)).toHaveLength(1);
    expect(await filesToUpload('other@example.com', [sha256], 2_000)).toHaveLength(1);
    await keepFile('other@example.com', prepared);
    expect((await db.files.get(sha256))!.uploaded).toBe(0);
  });

  it('takes a PDF, Excel, Word, PowerPoint, CSV and text file as it is, by the type its extension names', async () => {
    const cases: [string, string][] = [
      ['report.pdf', 'application/pdf'],
      ['panel.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      ['questionnaire.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ['findings.PPTX', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
      ['waves.csv', 'text/csv'],
      ['notes.txt', 'text/plain'],
    ];
    for (const [name, mime] of cases) {
      const prepared = await prepareFile(new File([`bytes of ${name}`], name));
      expect(prepared.attachment, name).toMatchObject({ name, mime, size: `bytes of ${name}`.length, width: null, height: null });
      expect(prepared.blob.size, name).toBe(`bytes of ${name}`.length);
    }
    // A macro-enabled Office file is none of these.
    await expect(prepareFile(new File(['PK'], 'macros.docm'))).rejects.toMatchObject({ title: 'File type not accepted' });
  });

  it('refuses, in words, a type the forum does not take, an empty file and one over 10 MB', async () => {
    await expect(prepareFile(new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' }))).rejects.toMatchObject({
      title: 'File type not accepted',
      message: expect.stringContaining('logo.svg: attach images'),
    });
    await expect(prepareFile(new File(['MZ'], 'setup.exe'))).rejects.toMatchObject({ title: 'File type not accepted' });
    // Issue 59: a name that hides a character (report<RLO>gnp.exe shows as "reportexe.png") is refused, not cleaned.
    await expect(prepareFile(new File(['a,b\n'], 'report\u202Egnp.csv'))).rejects.toMatchObject({
      title: 'The file name cannot be saved',
      message: expect.stringContaining('U+202E'),
    });
    await expect(prepareFile(new File([], 'empty.pdf'))).rejects.toMatchObject({ title: 'Empty file', message: 'empty.pdf is empty.' });
    await expect(prepareFile(new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'huge.pdf'))).rejects.toMatchObject({
      title: 'File too large',
      message: 'huge.pdf is 10.0 MB: a file can be at most 10 MB.',
    });
    expect(await db.files.count()).toBe(0);
  });
});
