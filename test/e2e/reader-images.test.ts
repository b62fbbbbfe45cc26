import type { Locator, Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { findJob } from '../../server/queue.ts';
import { ClipStatus } from '../../src/enums.ts';
import { e2eFixture, type SignedInUser } from '../helpers/e2e.ts';
import { gifImage, jpegImage, pngImage } from '../helpers/images.ts';
import { clipSettled } from '../helpers/notes.ts';
import type { Route } from '../helpers/site.ts';
import { waitFor } from '../helpers/wait.ts';

/** Waits for the UI: far beyond what a loaded machine needs (expect.poll's default is 1 s). */
const UI_WAIT = { timeout: 20_000 };

// A clipped page keeps its pictures: Margin stores them, and the reader shows Margin's copies
// (with their real size, lazily) even once the site has forgotten them; a picture Margin could
// not store shows its alt text. No picture comes from anywhere but Margin (img-src).

/** Whether the site still serves its pictures (the test takes them away once they are stored). */
let sitePictures = true;
/** Lets the held picture go (it waits until the test has seen its placeholder). */
let releaseHeld: () => void = () => {};
const held = new Promise<void>((resolve) => {
  releaseHeld = resolve;
});
const picture =
  (bytes: Buffer, type: string): Route =>
  (_req, res) => {
    if (!sitePictures) {
      res.statusCode = 404;
      res.end('gone');
      return;
    }
    res.setHeader('Content-Type', type);
    res.end(bytes);
  };

const FILLER = Array.from(
  { length: 12 },
  (_, i) =>
    `<p>Paragraph ${i + 1} of a long walk through a field of pictures, read slowly and kept for later.</p>`,
).join('\n');

const app = e2eFixture({
  workers: true,
  site: {
    '/article': (_req, res) => {
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><html><head><meta charset="utf-8"><title>A field of pictures</title>
<meta property="og:image" content="/lead.png"></head><body><article><h1>A field of pictures</h1>
<p>Pictures belong to the article they illustrate, and a reader keeps them when the site forgets them.</p>
<figure><img src="/diagram.png" alt="A diagram" srcset="/diagram.png 1x, /diagram@2x.png 2x"><figcaption>A diagram.</figcaption></figure>
${FILLER}
<picture><source srcset="/photo.webp" type="image/webp"><img src="/photo.jpg" alt="A photo"></picture>
<p>An animation closes the walk: <img src="/anim.gif" alt="An animation"></p>
<p><img src="/missing.png" alt="A picture the site never had"></p>
</article></body></html>`);
    },
    '/diagram.png': picture(pngImage(320, 160), 'image/png'),
    '/held.png': async (req, res) => {
      await held;
      picture(pngImage(120, 90), 'image/png')(req, res);
    },
    '/photo.jpg': picture(jpegImage(), 'image/jpeg'),
    '/anim.gif': picture(gifImage(48, 24), 'image/gif'),
    '/lead.png': picture(pngImage(64, 32, [200, 60, 60]), 'image/png'),
  },
});

async function clippedWithImages(user: SignedInUser): Promise<string> {
  const { note } = await user.caller.notes.clip({ url: `${app.site.origin}/article` });
  const { clipStatus, clipAttempts: attempt } = await clipSettled(app.deps, note.id);
  expect(clipStatus).toBe(ClipStatus.done);
  await waitFor(
    async () =>
      (await (await findJob(app.deps.queues, 'storeImages', { noteId: note.id, attempt }))?.getState()) ===
      'completed'
        ? true
        : undefined,
    30_000,
    'the images to be stored',
  );
  return note.id;
}

/** Each article image once scrolled to (they load lazily): how it loaded and what it says about itself. */
async function shownImages(page: Page) {
  const images = page.locator('.reader-content img');
  const count = await images.count();
  const shown = [];
  for (let i = 0; i < count; i++) {
    const image = images.nth(i);
    await image.scrollIntoViewIfNeeded();
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), UI_WAIT)
      .toBeGreaterThan(0);
    shown.push(
      await image.evaluate((img: HTMLImageElement) => ({
        alt: img.alt,
        src: img.currentSrc,
        natural: [img.naturalWidth, img.naturalHeight],
        attributes: [img.getAttribute('width'), img.getAttribute('height'), img.loading, img.decoding],
        srcset: img.getAttribute('srcset'),
      })),
    );
  }
  return shown;
}

test('the reader keeps the pictures when the site forgets them, from Margin’s origin, sized and lazy', async () => {
  const user = await app.user();
  const noteId = await clippedWithImages(user);
  sitePictures = false;
  const hitsBefore = new Map(app.site.hits);

  const { page, errors } = await app.signIn(undefined, { user });
  const siteRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(app.site.origin)) siteRequests.push(request.url());
  });
  const response = await page.goto(app.url(`/?pi=${noteId}&vs=article`));
  await page.getByTestId('reader-content').waitFor(UI_WAIT);

  const csp = response?.headers()['content-security-policy'] ?? '';
  const imgSrc =
    csp
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith('img-src ')) ?? '';
  expect(imgSrc).toBe("img-src 'self' data:");

  const shown = await shownImages(page);
  expect(shown.map((image) => [image.alt, image.natural, image.attributes])).toEqual([
    ['A diagram', [320, 160], ['320', '160', 'lazy', 'async']],
    ['A photo', [240, 160], ['240', '160', 'lazy', 'async']],
    ['An animation', [48, 24], ['48', '24', 'lazy', 'async']],
  ]);
  for (const image of shown) {
    expect(image.src.startsWith(`${app.url('/files/images/')}`)).toBe(true);
    expect(image.srcset).toBeNull();
  }
  expect(await page.locator('.reader-content source').count()).toBe(0);

  // The picture Margin could not store: its alt text in a placeholder, no broken request.
  const missing = page.locator('.reader-content .reader-image-missing');
  await missing.scrollIntoViewIfNeeded();
  expect(await missing.getAttribute('aria-label')).toBe('A picture the site never had');
  expect(await missing.evaluate((el) => getComputedStyle(el, '::after').content)).toBe(
    '"A picture the site never had"',
  );
  expect((await missing.boundingBox())?.height).toBeGreaterThan(40);

  // Nothing was asked of the site while reading.
  expect(siteRequests).toEqual([]);
  expect([...app.site.hits]).toEqual([...hitsBefore]);
  expect(errors).toEqual([]);

  // The list row's picture is the stored lead image.
  await page.getByTestId('reader-back').click();
  const thumb = page.locator(`[data-note-id="${noteId}"] img`).first();
  await thumb.waitFor(UI_WAIT);
  await expect
    .poll(
      () =>
        thumb.evaluate((img: HTMLImageElement) => [
          img.currentSrc.includes('/files/images/'),
          img.naturalWidth,
        ]),
      UI_WAIT,
    )
    .toEqual([true, 64]);
  sitePictures = true;
});

test('while the pictures are being stored the reader shows placeholders, then the pictures appear', async () => {
  sitePictures = true;
  const user = await app.user();
  // The page is sent with its HTML, so its text is there at once and only its picture waits.
  const { note } = await user.caller.notes.clipHtml({
    url: `${app.site.origin}/sent`,
    html: `<!doctype html><html><head><title>Sent with its picture</title></head><body><article><h1>Sent with its picture</h1>
<p>A page the browser sent with its HTML, so nothing had to be fetched but its picture, which comes a moment later.</p>
<p><img src="${app.site.origin}/held.png" alt="Arriving soon" width="120" height="90"></p>${FILLER}</article></body></html>`,
  });
  const { page, errors } = await app.signIn(`/?pi=${note.id}&vs=article`, { user });
  const pending = page.locator('.reader-content .reader-image-missing[data-state="pending"]');
  await pending.waitFor(UI_WAIT);
  expect(await pending.getAttribute('aria-label')).toBe('Arriving soon');
  // Where a box is in the article (whatever the scroll), to the pixel.
  const placeOf = (box: Locator) =>
    box.evaluate((element) => {
      const rect = element.getBoundingClientRect();
      return [rect.left, rect.top + window.scrollY, rect.width, rect.height].map(Math.round);
    });
  const after = page.locator('.reader-content p', { hasText: 'Paragraph 1 of' });
  // The page declared the picture's size: its placeholder keeps that space.
  const pendingPlace = await placeOf(pending);
  expect(pendingPlace.slice(2)).toEqual([120, 90]);
  const afterPlace = await placeOf(after);
  releaseHeld();
  const image = page.locator('.reader-content img[alt="Arriving soon"]:not(.reader-image-missing)');
  await image.waitFor(UI_WAIT);
  await image.scrollIntoViewIfNeeded();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth), UI_WAIT).toBe(120);
  expect(await image.evaluate((img) => img.getAttribute('src'))).toMatch(
    /^\/files\/images\/[0-9a-f]{64}\.png$/,
  );
  expect(await pending.count()).toBe(0);
  // The picture took the placeholder's place, and nothing after it moved.
  expect(await placeOf(image)).toEqual(pendingPlace);
  expect(await placeOf(after)).toEqual(afterPlace);
  expect(errors).toEqual([]);
});
