// Attachments in local-only mode (issue 42): Attach in New Post (a chart and a CSV), a file the forum
// does not take refused in words with nothing else lost, a file removed before sending (its bytes stay); the post
// shows its image at its size and its file as a link with name and size, from IndexedDB, after a reload.
import { expect, test } from '@playwright/test';
import { card, MEMBER, openForum, storeSession, toast } from './support/app';

test('Attach: an image and a CSV kept on the device with their post; an SVG refused in words; a file removed before sending', async ({
  page,
}) => {
  await storeSession(page, MEMBER);
  await openForum(page);
  // A 1200 × 800 PNG chart, drawn in the page.
  const chart = await page.evaluate(async () => {
    const canvas = new OffscreenCanvas(1200, 800);
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#0d6efd';
    context.fillRect(100, 200, 200, 600);
    context.fillRect(500, 400, 200, 400);
    return [...new Uint8Array(await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer())];
  });
  await page.getByRole('button', { name: 'New Post' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New Post' });
  await dialog.getByLabel('Title').fill('Completes by incentive');
  await dialog.getByLabel('Content').fill('The chart and the numbers behind it.');
  const files = dialog.getByLabel('Files to attach');
  await files.setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg onload="alert(1)"/>') });
  await expect(toast(page, 'File type not accepted', 'alert')).toContainText('logo.svg: attach images');
  await files.setInputFiles([
    { name: 'completes.png', mimeType: 'image/png', buffer: Buffer.from(chart) },
    { name: 'completes.csv', mimeType: 'text/csv', buffer: Buffer.from('incentive,completes\ncash,412\ndraw,301\n') },
    { name: 'scratch.txt', mimeType: 'text/plain', buffer: Buffer.from('to be removed') },
  ]);
  const attached = dialog.getByRole('list', { name: 'Attached files' }).getByRole('listitem');
  await expect(attached).toHaveCount(3);
  await expect(attached.first()).toContainText('1200×800');
  await dialog.getByRole('button', { name: 'Remove scratch.txt' }).click();
  await expect(attached).toHaveCount(2);
  await expect(dialog.getByLabel('Title')).toHaveValue('Completes by incentive');
  await dialog.getByRole('button', { name: 'Submit Post' }).click();
  await expect(toast(page, 'Post Submitted!')).toBeVisible();

  await page.goto('/profile');
  await expect(card(page, 'Completes by incentive')).toContainText('2 attachments');
  await card(page, 'Completes by incentive').getByRole('link', { name: 'Completes by incentive' }).click();
  await page.reload();
  const attachments = page.getByRole('region', { name: 'Attachments' });
  const image = attachments.getByRole('img', { name: 'completes' });
  await expect(image).toHaveAttribute('width', '1200');
  await expect(image).toHaveAttribute('height', '800');
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1200);
  const csv = attachments.getByRole('link', { name: /completes\.csv/ });
  await expect(csv).toContainText('38 B');
  // The files are a plain row below the images: no bullet, no box around the list, a gap from the image.
  const fileRow = attachments.getByRole('list');
  expect(await fileRow.evaluate((list) => [getComputedStyle(list).listStyleType, getComputedStyle(list).borderTopStyle])).toEqual([
    'none',
    'none',
  ]);
  const imageBox = (await image.boundingBox())!;
  expect((await csv.boundingBox())!.y).toBeGreaterThanOrEqual(imageBox.y + imageBox.height + 8);
  await expect(csv).toHaveAttribute('download', 'completes.csv');
  // The post names two files; the removed one's bytes stay on the device too (another draft may name them).
  expect(
    await page.evaluate(async () => {
      const request = indexedDB.open('insight-exchange');
      const database = await new Promise<IDBDatabase>((resolve) => (request.onsuccess = () => resolve(request.result)));
      return new Promise<number>((resolve) => {
        const count = database.transaction('files').objectStore('files').count();
        count.onsuccess = () => resolve(count.result);
      });
    }),
  ).toBe(3);
});

test('a WebP and a Word file dropped on New Post attach; the post shows the WebP lazily at its size, a click opens it whole; the Word file downloads', async ({
  page,
}) => {
  await storeSession(page, MEMBER);
  await openForum(page);
  await page.getByRole('button', { name: 'New Post' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New Post' });
  await dialog.getByLabel('Title').fill('Shelf test, wave 2');
  await dialog.getByLabel('Content').fill('The shelf as shoppers saw it, and the questionnaire.');
  // Dropped from the desktop: a 900 × 600 WebP drawn in the page and a Word file (a browser gives it no type).
  const dropped = await page.evaluateHandle(async () => {
    const canvas = new OffscreenCanvas(900, 600);
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#198754';
    context.fillRect(0, 0, 900, 600);
    context.fillStyle = '#ffc107';
    context.fillRect(300, 150, 300, 300);
    const transfer = new DataTransfer();
    transfer.items.add(new File([await canvas.convertToBlob({ type: 'image/webp', quality: 0.9 })], 'shelf.webp', { type: 'image/webp' }));
    transfer.items.add(new File(['PK questionnaire'], 'questionnaire.docx'));
    return transfer;
  });
  const body = dialog.locator('.modal-body');
  await body.dispatchEvent('dragover', { dataTransfer: dropped });
  await body.dispatchEvent('drop', { dataTransfer: dropped });
  const attached = dialog.getByRole('list', { name: 'Attached files' }).getByRole('listitem');
  await expect(attached).toHaveCount(2);
  await expect(attached.filter({ hasText: 'shelf.webp' })).toContainText('900×600');
  await expect(attached.filter({ hasText: 'questionnaire.docx' })).toContainText('16 B');
  await expect(dialog.getByLabel('Content')).toHaveValue('The shelf as shoppers saw it, and the questionnaire.');
  await dialog.getByRole('button', { name: 'Submit Post' }).click();
  await expect(toast(page, 'Post Submitted!')).toBeVisible();

  await page.goto('/profile');
  await card(page, 'Shelf test, wave 2').getByRole('link', { name: 'Shelf test, wave 2' }).click();
  const attachments = page.getByRole('region', { name: 'Attachments' });
  const image = attachments.getByRole('img', { name: 'shelf' });
  // Its box is reserved before it loads (width and height), and it loads only near the screen.
  await expect(image).toHaveAttribute('width', '900');
  await expect(image).toHaveAttribute('height', '600');
  await expect(image).toHaveAttribute('loading', 'lazy');
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(900);
  const open = attachments.getByRole('link', { name: 'Open image shelf.webp' });
  const href = await open.getAttribute('href');
  const popup = page.waitForEvent('popup');
  await open.click();
  const whole = await popup;
  expect(whole.url()).toBe(href);
  await expect.poll(() => whole.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(900);
  await whole.close();
  const word = attachments.getByRole('link', { name: /questionnaire\.docx/ });
  await expect(word).toContainText('16 B');
  await expect(word).toHaveAttribute('download', 'questionnaire.docx');
});

test('a reply carries a file too: attached in the reply box, shown under the reply as a link with its name and size', async ({ page }) => {
  const title = 'How are you validating AI-generated survey insights before they reach clients?';
  await storeSession(page, MEMBER);
  await openForum(page);
  await card(page, title).getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const box = page.locator('form.app-reply-box');
  await box.getByRole('textbox', { name: 'Your reply' }).fill('Our coding frame, for comparison.');
  await box.getByLabel('Files to attach').setInputFiles({
    name: 'coding-frame.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('code,label\n1,Price\n2,Trust\n'),
  });
  await expect(box.getByRole('list', { name: 'Attached files' })).toContainText('coding-frame.csv');
  await box.getByRole('button', { name: 'Post Reply' }).click();
  const reply = page.getByRole('list', { name: 'Replies' }).getByRole('listitem').filter({ hasText: 'Our coding frame, for comparison.' });
  const link = reply.getByRole('region', { name: 'Attachments' }).getByRole('link', { name: /coding-frame\.csv/ });
  // The reply shows, or a refusal does: then the test says which (a toast leaves after 5 s).
  const refusal = page.locator('.app-toasts .app-toast-error');
  await expect(link.or(refusal)).toBeVisible();
  expect(await refusal.count(), (await refusal.allTextContents()).join(' ')).toBe(0);
  await expect(link).toContainText('27 B');
  await expect(box.getByRole('list', { name: 'Attached files' })).toHaveCount(0);
});

test('a 12-megapixel photo taken upright (Exif orientation 6) is resized upright: 1536 × 2048, never stretched', async ({ page }) => {
  await storeSession(page, MEMBER);
  await openForum(page);
  // A 4000 × 3000 JPEG whose Exif says "turn it a quarter clockwise", as a phone held upright saves it.
  const photo = await page.evaluate(async () => {
    const canvas = new OffscreenCanvas(4000, 3000);
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#198754';
    context.fillRect(0, 0, 4000, 3000);
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, 2000, 1500);
    const jpeg = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.8 })).arrayBuffer());
    // APP1 "Exif": a big-endian TIFF header and one IFD entry, Orientation (0x0112) = 6.
    const exif = [
      0xff, 0xe1, 0x00, 0x22, 0x45, 0x78, 0x69, 0x66, 0, 0, 0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0,
      0, 0, 0, 0,
    ];
    return [...jpeg.slice(0, 2), ...exif, ...jpeg.slice(2)];
  });
  await page.getByRole('button', { name: 'New Post' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New Post' });
  await dialog.getByLabel('Files to attach').setInputFiles({ name: 'fieldwork.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(photo) });
  const attached = dialog.getByRole('list', { name: 'Attached files' }).getByRole('listitem');
  await expect(attached).toHaveCount(1);
  await expect(attached.first()).toContainText('1536×2048');
  // The pixels are upright too: the white quarter (top left as taken) is now at the top right.
  const corners = await page.evaluate(async () => {
    const request = indexedDB.open('insight-exchange');
    const database = await new Promise<IDBDatabase>((resolve) => (request.onsuccess = () => resolve(request.result)));
    const rows = await new Promise<{ blob: Blob; width: number }[]>((resolve) => {
      const all = database.transaction('files').objectStore('files').getAll();
      all.onsuccess = () => resolve(all.result);
    });
    database.close();
    const bitmap = await createImageBitmap(rows.find((row) => row.width === 1536)!.blob, { imageOrientation: 'none' });
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d')!;
    context.drawImage(bitmap, 0, 0);
    const at = (x: number, y: number) => context.getImageData(x, y, 1, 1).data[0]! > 200;
    return { size: `${bitmap.width}×${bitmap.height}`, topLeftWhite: at(100, 100), topRightWhite: at(1436, 100) };
  });
  expect(corners).toEqual({ size: '1536×2048', topLeftWhite: false, topRightWhite: true });
});

test('a photo shows its small picture while it is encoded, and the post waits for it: Submit Post comes back once it is attached', async ({
  page,
}) => {
  // Once armed, a full-size encode is held until the test lets it go (the small picture's own encode is not).
  await page.addInitScript(() => {
    const encode = OffscreenCanvas.prototype.convertToBlob;
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const hold = { armed: false };
    Object.assign(window, { holdEncodes: () => (hold.armed = true), releaseEncode: () => release() });
    OffscreenCanvas.prototype.convertToBlob = async function (this: OffscreenCanvas, options?: ImageEncodeOptions) {
      if (hold.armed && this.width > 200) await released;
      return encode.call(this, options);
    };
  });
  await storeSession(page, MEMBER);
  await openForum(page);
  const photo = await page.evaluate(async () => {
    const canvas = new OffscreenCanvas(1600, 1200);
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#198754';
    context.fillRect(0, 0, 1600, 1200);
    return [...new Uint8Array(await (await canvas.convertToBlob({ type: 'image/jpeg' })).arrayBuffer())];
  });
  await page.evaluate(() => (window as unknown as { holdEncodes: () => void }).holdEncodes());
  await page.getByRole('button', { name: 'New Post' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New Post' });
  await dialog.getByLabel('Title').fill('Field photo');
  await dialog.getByLabel('Content').fill('The shelf as we found it.');
  await dialog.getByLabel('Files to attach').setInputFiles({ name: 'shelf.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(photo) });
  const preparing = dialog.getByRole('status').filter({ hasText: 'Preparing shelf.jpg…' });
  await expect(preparing).toBeVisible();
  await expect.poll(() => preparing.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(128);
  await expect(dialog.getByRole('button', { name: 'Submit Post' })).toBeDisabled();
  await page.evaluate(() => (window as unknown as { releaseEncode: () => void }).releaseEncode());
  await expect(preparing).toHaveCount(0);
  await expect(dialog.getByRole('list', { name: 'Attached files' }).getByRole('listitem')).toContainText('1600×1200');
  await expect(dialog.getByRole('button', { name: 'Submit Post' })).toBeEnabled();
});
