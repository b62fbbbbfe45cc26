// `npm run guide:screenshots`: the screenshots of the getting-started guide
// (/personSetting/guide). Starts the real app with its workers (test/helpers/e2e.ts), fills an
// account with a few articles, highlights and daily notes, opens each step's screen in Chromium
// at the guide's size, light and dark, and writes client/public/guide/<step>-<theme>.webp (the
// browser's own WebP encoder, each at most 80 KB). Needs the client built (`npm run build`).
// Set GUIDE_PNG_DIR to also keep the uncompressed PNGs there, for a look.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import {
  GUIDE_IMAGE_SIZE,
  GUIDE_STEPS,
  GUIDE_THEMES,
  type GuideStepId,
  guideImagePath,
} from '../../client/features/tools/guide-steps.ts';
import { dragSelect } from '../helpers/drag-select.ts';
import { e2eFixture, type SignedInUser } from '../helpers/e2e.ts';
import { type GuideLibrary, PHRASE_TO_SELECT, seedGuideLibrary } from './guide-library.ts';
import { encodeWebp } from './webp.ts';

const PUBLIC_DIR = path.resolve(import.meta.dirname, '../../client/public');
const MAX_BYTES = 80 * 1024;
/** A desktop Chrome, so the rate-us screen marks Chrome as the reader's browser. */
const USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

/** The server address the sync step shows in place of the loopback one the capture runs on. */
const SHOWN_SERVER_ADDRESS = 'https://margin.example.com';

const app = e2eFixture({
  workers: true,
  browser: { viewport: GUIDE_IMAGE_SIZE, userAgent: USER_AGENT, timeout: 30_000 },
});

/** Waits until the page has settled: fonts loaded, no pending animation frames of note. */
async function settled(page: Page): Promise<void> {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
}

/** Brings a step's screen up as the guide shows it. */
const SCENES: Record<GuideStepId, (page: Page, library: GuideLibrary) => Promise<void>> = {
  async save(page) {
    await page.goto(app.url('/'));
    await expect.poll(() => page.getByTestId('note-item').count()).toBeGreaterThan(3);
    await page.getByTestId('save-url-input').fill('https://essays.example/the-reading-year');
  },
  async highlight(page, library) {
    await page.goto(app.url(`/?pi=${library.notes.slow}&vs=article`));
    await page.locator('.reader-content').waitFor();
    await dragSelect(page, PHRASE_TO_SELECT, { within: '.reader-content', scroll: false });
    await page.locator('.selection-tooltip').first().waitFor();
  },
  async organise(page) {
    await page.goto(app.url('/'));
    await expect.poll(() => page.getByTestId('note-item').count()).toBeGreaterThan(3);
    await page.getByTestId('sidebar-nav').locator('[data-nav="folder"]').click();
    await page.getByTestId('search-input').fill('#reading');
    await page.getByTestId('search-input').press('Enter');
    await expect.poll(() => page.getByTestId('note-item').count()).toBe(2);
    await page.mouse.move(GUIDE_IMAGE_SIZE.width - 1, GUIDE_IMAGE_SIZE.height - 1);
  },
  async daily(page) {
    await page.goto(app.url('/daily'));
    await page.getByTestId('daily-preview-toggle').click();
    await page.locator('.daily-page .markdown').first().waitFor();
  },
  async sync(page) {
    await page.goto(app.url('/personSetting/sync'));
    await page.locator('.integration-entry').waitFor();
    // The page shows the address it is open at; a reader's own install has a name, not a test port.
    await page
      .getByTestId('server-address')
      .evaluate((code, address) => code.replaceChildren(address), SHOWN_SERVER_ADDRESS);
  },
  async extension(page) {
    await page.goto(app.url('/personSetting/rateus'));
    await page.getByTestId('store-list').waitFor();
  },
};

let reader: SignedInUser;
let library: GuideLibrary;

test('the guide screenshots', async () => {
  reader = await app.user();
  library = await seedGuideLibrary(reader);
  const encoder = (await app.open()).page;
  const keepPng = process.env.GUIDE_PNG_DIR;
  if (keepPng) await fs.mkdir(keepPng, { recursive: true });
  for (const theme of GUIDE_THEMES) {
    const { context, page, errors } = await app.signIn(undefined, { user: reader, colorScheme: theme });
    for (const step of GUIDE_STEPS) {
      await SCENES[step.id](page, library);
      await settled(page);
      const png = await page.screenshot({ type: 'png' });
      if (keepPng) await fs.writeFile(path.join(keepPng, `${step.id}-${theme}.png`), png);
      const webp = await encodeWebp(encoder, png, MAX_BYTES);
      const file = path.join(PUBLIC_DIR, guideImagePath(step.id, theme));
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, webp);
      console.log(`${path.relative(process.cwd(), file)}: ${(webp.length / 1024).toFixed(1)} KB`);
    }
    expect(errors).toEqual([]);
    await context.close();
  }
});
