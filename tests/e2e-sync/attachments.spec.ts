// Attachments across devices (issue 42): a photo pasted into New Post on a phone with no network is
// resized and re-encoded on the phone (its location metadata never leaves it), uploaded once when the
// network returns, and painted on the tablet at its size; a PDF opens as a download; another member
// cannot fetch a pending post's file.
import { expect, test, type Page } from '@playwright/test';
import { serverForSpec, syncPort } from './support/server';
import { PHONE, reachedServer, sendOps, signedInDevice, storedPosts, TABLET, waitSynced } from './support/devices';

const spec = serverForSpec(syncPort(33));
const toasts = (page: Page) => page.locator('.app-toasts');

/** A 3000 × 2000 JPEG drawn in the page, with an Exif segment naming where it was taken (as a phone's camera writes). */
function photoWithLocation(page: Page): Promise<number[]> {
  return page.evaluate(async () => {
    const canvas = new OffscreenCanvas(3000, 2000);
    const context = canvas.getContext('2d')!;
    const gradient = context.createLinearGradient(0, 0, 3000, 2000);
    gradient.addColorStop(0, '#1d4ed8');
    gradient.addColorStop(1, '#f59e0b');
    context.fillStyle = gradient;
    context.fillRect(0, 0, 3000, 2000);
    const jpeg = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.9 })).arrayBuffer());
    const note = new TextEncoder().encode('Exif\0\0MM\0*GPSLatitude 51.5072 N GPSLongitude 0.1276 W');
    const length = note.length + 2;
    const app1 = [0xff, 0xe1, length >> 8, length & 255, ...note];
    return [...jpeg.slice(0, 2), ...app1, ...jpeg.slice(2)];
  });
}

/** Pastes `bytes` as a file named `name` into the focused New Post content, as a paste from the camera roll does. */
async function pasteFile(page: Page, bytes: number[], name: string, type: string): Promise<void> {
  await page
    .getByRole('dialog', { name: 'New Post' })
    .getByLabel('Content')
    .evaluate(
      (textarea, file) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([new Uint8Array(file.bytes)], file.name, { type: file.type }));
        textarea.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
      },
      { bytes, name, type },
    );
}

test('a photo pasted offline on a phone reaches the tablet once, resized and without its location; another member cannot fetch it while pending', async ({
  browser,
}) => {
  const title = 'Fieldwork board, wave 3';
  const phone = await signedInDevice(browser, spec.server, 'fieldwork@example.com', PHONE);
  const uploads: string[] = [];
  phone.page.on('request', (request) => {
    if (request.method() === 'PUT' && request.url().includes('/api/attachments/')) uploads.push(request.url());
  });
  const photo = await photoWithLocation(phone.page);
  expect(new TextDecoder().decode(new Uint8Array(photo))).toContain('GPSLatitude');

  // The editor's code is loaded first: these devices run without the service worker that keeps it.
  await phone.page.getByRole('button', { name: 'New Post' }).first().click();
  const dialog = phone.page.getByRole('dialog', { name: 'New Post' });
  await expect(dialog.getByLabel('Title')).toBeVisible();
  await phone.context.setOffline(true);
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Content').fill('The board after wave 3.');
  await pasteFile(phone.page, photo, 'IMG_0042.jpg', 'image/jpeg');
  const attached = dialog.getByRole('list', { name: 'Attached files' }).getByRole('listitem');
  await expect(attached).toContainText('IMG_0042.jpg');
  // Resized on the phone: 2,048 px on its longest side.
  await expect(attached).toContainText('2048×1365');
  await dialog.getByRole('button', { name: 'Submit Post' }).click();
  await expect(toasts(phone.page).getByRole('status').filter({ hasText: 'Post Submitted!' })).toBeVisible();
  await expect(phone.page.getByRole('status', { name: /^Sync status: Offline/ })).toBeVisible();
  expect(uploads).toEqual([]);

  await phone.context.setOffline(false);
  await waitSynced(phone.page);
  expect(uploads).toHaveLength(1);
  const post = (await storedPosts(phone.page)).find((candidate) => candidate.title === title) as unknown as {
    id: number;
    attachments: { sha256: string; mime: string; width: number; height: number }[];
  };
  expect(post.attachments).toEqual([expect.objectContaining({ mime: 'image/jpeg', width: 2048, height: 1365 })]);
  const { sha256 } = post.attachments[0]!;

  // Pending: another member gets what no file gets.
  const other = await signedInDevice(browser, spec.server, 'curious@example.com', TABLET);
  expect(await other.page.evaluate(async (address) => (await fetch(`/api/attachments/${address}`)).status, sha256)).toBe(404);

  const tablet = await signedInDevice(browser, spec.server, 'admin@insightexchange.app', TABLET);
  expect((await sendOps(tablet.page, [{ type: 'approve', postId: post.id }])).results[0]?.status).toBe('applied');
  await tablet.page.goto(`/posts/${post.id}`);
  const image = tablet.page.getByRole('region', { name: 'Attachments' }).getByRole('img', { name: 'IMG_0042' });
  await expect(image).toHaveAttribute('width', '2048');
  await expect(image).toHaveAttribute('height', '1365');
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(2048);

  // What the server stores is pixels only: no Exif segment, no location.
  const stored = await tablet.page.evaluate(async (address) => {
    const bytes = new Uint8Array(await (await fetch(`/api/attachments/${address}`)).arrayBuffer());
    return { head: [bytes[0], bytes[1]], text: new TextDecoder('latin1').decode(bytes) };
  }, sha256);
  expect(stored.head).toEqual([0xff, 0xd8]);
  expect(stored.text).not.toContain('Exif');
  expect(stored.text).not.toContain('GPSLatitude');
  // Approved: every member may fetch it now.
  expect(await other.page.evaluate(async (address) => (await fetch(`/api/attachments/${address}`)).status, sha256)).toBe(200);
  for (const device of [phone, other, tablet]) await device.context.close();
});

test('a PDF attached with Attach shows as a link with its name and size, and opens as a download on another device', async ({
  browser,
}) => {
  const title = 'Questionnaire for wave 4';
  const phone = await signedInDevice(browser, spec.server, 'questionnaire@example.com', PHONE);
  await phone.page.getByRole('button', { name: 'New Post' }).first().click();
  const dialog = phone.page.getByRole('dialog', { name: 'New Post' });
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Content').fill('The draft questionnaire, for comments.');
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\n% the wave 4 questionnaire\ntrailer << >>\n%%EOF\n');
  await dialog.getByLabel('Files to attach').setInputFiles({ name: 'Wave 4 questionnaire.pdf', mimeType: 'application/pdf', buffer: pdf });
  await expect(dialog.getByRole('list', { name: 'Attached files' })).toContainText('Wave 4 questionnaire.pdf');
  await dialog.getByRole('button', { name: 'Submit Post' }).click();
  await expect(toasts(phone.page).getByRole('status').filter({ hasText: 'Post Submitted!' })).toBeVisible();
  await reachedServer(phone.page); // the post has the server's id
  const post = (await storedPosts(phone.page)).find((candidate) => candidate.title === title)!;

  const tablet = await signedInDevice(browser, spec.server, 'admin@insightexchange.app', TABLET);
  expect((await sendOps(tablet.page, [{ type: 'approve', postId: post.id }])).results[0]?.status).toBe('applied');
  const reader = await signedInDevice(browser, spec.server, 'reader@example.com', TABLET);
  await reader.page.goto('/forum');
  await expect(reader.page.getByRole('article').filter({ hasText: title })).toContainText('1 attachment');
  await reader.page.goto(`/posts/${post.id}`);
  const link = reader.page.getByRole('region', { name: 'Attachments' }).getByRole('link', { name: /Wave 4 questionnaire\.pdf/ });
  await expect(link).toContainText(`${pdf.length} B`);
  const [download] = await Promise.all([reader.page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toBe('Wave 4 questionnaire.pdf');
  for (const device of [phone, tablet, reader]) await device.context.close();
});

test('a card fetches no file; a post’s image opens offline from the bounded cache, and a saved post’s is kept apart: it opens offline after that cache lost it', async ({
  browser,
}) => {
  const title = 'Panel quality chart, kept';
  const author = await signedInDevice(browser, spec.server, 'charts@example.com', TABLET);
  await author.page.getByRole('button', { name: 'New Post' }).first().click();
  const dialog = author.page.getByRole('dialog', { name: 'New Post' });
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Content').fill('The chart from the panel audit.');
  const png = await author.page.evaluate(async () => {
    const canvas = new OffscreenCanvas(300, 200);
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#0f766e';
    context.fillRect(0, 0, 300, 200);
    return [...new Uint8Array(await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer())];
  });
  await dialog.getByLabel('Files to attach').setInputFiles({ name: 'quality.png', mimeType: 'image/png', buffer: Buffer.from(png) });
  await expect(dialog.getByRole('list', { name: 'Attached files' })).toContainText('quality.png');
  await dialog.getByRole('button', { name: 'Submit Post' }).click();
  await expect(toasts(author.page).getByRole('status').filter({ hasText: 'Post Submitted!' })).toBeVisible();
  await reachedServer(author.page); // the post has the server's id
  const post = (await storedPosts(author.page)).find((candidate) => candidate.title === title)!;
  const admin = await signedInDevice(browser, spec.server, 'admin@insightexchange.app', TABLET);
  expect((await sendOps(admin.page, [{ type: 'approve', postId: post.id }])).results[0]?.status).toBe('applied');

  // A reader with the service worker saves the post: its file goes into the saved files' cache.
  const reader = await signedInDevice(browser, spec.server, 'keeper@example.com', PHONE, '/forum', 'allow');
  await expect
    .poll(() => reader.page.evaluate(async () => (await navigator.serviceWorker.ready).active?.state), { timeout: 30_000 })
    .toBe('activated');
  // The forum's card says the post carries a file, and fetches none.
  const fetched: string[] = [];
  reader.page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/attachments/')) fetched.push(request.url());
  });
  await reader.page.reload();
  const postCard = reader.page.getByRole('article').filter({ has: reader.page.getByRole('heading', { name: title }) });
  await expect(postCard).toContainText('1 attachment', { timeout: 30_000 });
  expect(fetched).toEqual([]);
  await reader.page.goto(`/posts/${post.id}`);
  const image = reader.page.getByRole('region', { name: 'Attachments' }).getByRole('img', { name: 'quality' });
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(300);
  expect(fetched).toHaveLength(1);
  // Not saved: the post's image opens offline from the bounded cache the service worker keeps.
  const bounded = () => reader.page.evaluate(async () => (await (await caches.open('insight-attachments')).keys()).length);
  await expect.poll(bounded, { timeout: 30_000 }).toBe(1);
  await reader.context.setOffline(true);
  await reader.page.reload();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 30_000 }).toBe(300);
  await reader.context.setOffline(false);
  await reader.page.getByRole('button', { name: 'Save', pressed: false }).first().click();
  const kept = () =>
    reader.page.evaluate(async () =>
      (await (await caches.open('insight-attachments-saved')).keys()).map((request) => new URL(request.url).pathname),
    );
  await expect.poll(kept, { timeout: 30_000 }).toEqual([expect.stringMatching(/^\/api\/attachments\/[0-9a-f]{64}$/)]);

  // The bounded cache evicts it (as 300 newer files would); offline, the saved post still shows its image.
  await reader.page.evaluate(() => caches.delete('insight-attachments'));
  await reader.context.setOffline(true);
  await reader.page.reload();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 30_000 }).toBe(300);
  await reader.context.setOffline(false);

  // Unsaved: the file leaves the saved cache.
  await reader.page.getByRole('button', { name: 'Save', pressed: true }).first().click();
  await expect.poll(kept, { timeout: 30_000 }).toEqual([]);
  for (const device of [author, admin, reader]) await device.context.close();
});
