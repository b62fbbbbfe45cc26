// The tools area's guide, changelog, feedback and rate-us pages in Chromium, against the real
// server: the guide's screenshots load, the changelog is CHANGELOG.md's, feedback is sent, stored
// and thanked for, and the rate-us page links the region's stores with the reader's browser marked.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { GUIDE_IMAGE_SIZE, GUIDE_STEPS } from '../../client/features/tools/guide-steps.ts';
import { Feedback } from '../../server/db/entities/index.ts';
import { EXTENSION_CHN_LINKS, EXTENSION_STORE_LINKS } from '../../src/regions.ts';
import { e2eFixture } from '../helpers/e2e.ts';

const UI_WAIT = { timeout: 20_000 };
const CHANGELOG = fs.readFileSync(path.resolve(import.meta.dirname, '../../CHANGELOG.md'), 'utf8');
const FIREFOX_UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:142.0) Gecko/20100101 Firefox/142.0';
const EDGE_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36 Edg/140.0.0.0';

const app = e2eFixture({ browser: { timeout: 20_000 } });

/** Each guide image as the page has it, after scrolling it into view (they load lazily). */
async function guideImages(page: Page) {
  const images = page.locator('.guide-step img');
  const count = await images.count();
  const seen = [];
  for (let i = 0; i < count; i++) {
    const image = images.nth(i);
    await image.scrollIntoViewIfNeeded();
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), UI_WAIT)
      .toBe(true);
    seen.push(
      await image.evaluate((img: HTMLImageElement) => ({
        src: new URL(img.src).pathname,
        alt: img.alt,
        loading: img.loading,
        width: img.getAttribute('width'),
        height: img.getAttribute('height'),
        naturalWidth: img.naturalWidth,
      })),
    );
  }
  return seen;
}

/**
 * What the browser extension does to every page it runs on: its market, version and market
 * version on the html element (as soon as there is one: init scripts may run before it exists).
 */
function markAsExtension(attributes: Record<string, string>) {
  const mark = () => {
    for (const [name, value] of Object.entries(attributes))
      document.documentElement.setAttribute(name, value);
  };
  if (document.documentElement) mark();
  else {
    new MutationObserver((_, observer) => {
      if (!document.documentElement) return;
      mark();
      observer.disconnect();
    }).observe(document, { childList: true });
  }
}

/** The store rows of the rate-us page: which browser, where its button goes, and whether it is marked. */
async function stores(page: Page) {
  await page.getByTestId('store-list').waitFor();
  return page.locator('.store').evaluateAll((rows) =>
    rows.map((row) => ({
      market: row.getAttribute('data-market'),
      href: row.querySelector('a')?.getAttribute('href') ?? null,
      current: row.hasAttribute('data-current'),
      text: row.textContent,
    })),
  );
}

describe('the guide', () => {
  test('six steps, each with a screenshot that loads, sized and described; dark screenshots in the dark theme', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const { context, page, errors } = await app.signIn('/personSetting/guide', { colorScheme: theme });
      await page.getByTestId('guide-steps').waitFor();
      const images = await guideImages(page);
      expect(images.map((i) => i.src)).toEqual(GUIDE_STEPS.map((s) => `/guide/${s.id}-${theme}.webp`));
      for (const image of images) {
        expect(image).toMatchObject({
          loading: 'lazy',
          width: String(GUIDE_IMAGE_SIZE.width),
          height: String(GUIDE_IMAGE_SIZE.height),
          naturalWidth: GUIDE_IMAGE_SIZE.width,
        });
        expect(image.alt.length).toBeGreaterThan(20);
      }
      expect(images[0]?.alt).toBe('The library, with a link pasted into the save box above the saved pages.');
      await expect(page.getByTestId('guide-steps').getByRole('heading').allTextContents()).resolves.toEqual([
        'Save a page',
        'Highlight and annotate',
        'Organise and find',
        'Write a daily note',
        'Send highlights to your notes',
        'Add the browser extension',
      ]);
      // Each step links to where it happens.
      await page.getByRole('link', { name: "Open today's note" }).click();
      await page.waitForURL(/\/daily$/);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  test('every screenshot in the repository is WebP and at most 80 KB', () => {
    for (const step of GUIDE_STEPS) {
      for (const theme of ['light', 'dark']) {
        const file = path.resolve(import.meta.dirname, `../../client/public/guide/${step.id}-${theme}.webp`);
        const bytes = fs.readFileSync(file);
        expect(bytes.subarray(8, 12).toString('ascii')).toBe('WEBP');
        expect(bytes.length).toBeLessThanOrEqual(80 * 1024);
      }
    }
  });
});

describe("what's new", () => {
  test('the page shows CHANGELOG.md: its version and area headings, its entries, not its preamble', async () => {
    const { context, page, errors } = await app.signIn('/personSetting/changelog');
    const changelog = page.getByTestId('changelog');
    await changelog.waitFor();
    const fromFile = [...CHANGELOG.matchAll(/^(#{2,3}) (.+)$/gm)].map((m) => `h${m[1]?.length} ${m[2]}`);
    expect(fromFile).toContain('h2 0.1.0 - 2026-11-24');
    const shown = await changelog
      .locator('h2, h3')
      .evaluateAll((headings) => headings.map((h) => `${h.tagName.toLowerCase()} ${h.textContent}`));
    expect(shown).toEqual(fromFile);
    const firstEntry = /^- (.+)$/m.exec(CHANGELOG)?.[1] ?? '';
    await expect(changelog.locator('li').first().textContent()).resolves.toBe(firstEntry);
    // The file's title and its note on the format are for the repository, not the page.
    await expect(changelog.locator('h1').count()).resolves.toBe(0);
    await expect(changelog.textContent()).resolves.not.toContain('Keep a Changelog');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('feedback', () => {
  test('sent with the environment: stored, thanked for, listed, and the form starts over', async () => {
    const user = await app.user();
    const opened = await app.signIn(undefined, { user, timezoneId: 'Asia/Tokyo' });
    const { context, page, errors } = opened;
    // What the browser extension writes on the page's html element.
    await context.addInitScript(markAsExtension, { mkt: 'firefox', v: '25.4.307', mktv: '142' });
    await page.goto(app.url('/personSetting/feedback'));
    const form = page.getByTestId('feedback-form');
    await form.waitFor();

    // Nothing typed: the message is asked for and nothing is sent.
    await form.getByRole('button', { name: 'Send feedback' }).click();
    await form.getByText('Cannot be empty').waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('name')), UI_WAIT)
      .toBe('message');

    await form.getByRole('radio', { name: /Idea/ }).check();
    await form.getByLabel('Your message').fill('Could the reader remember my place in long articles?');
    await expect(form.getByText('52 / 5,000').count()).resolves.toBe(1);
    await form.getByLabel('Email for a reply (optional)').fill('not an email');
    await form.getByRole('button', { name: 'Send feedback' }).click();
    await form.getByText('Please enter a valid email address.').waitFor();
    await form.getByLabel('Email for a reply (optional)').fill('ada@example.test');
    await expect(form.getByRole('checkbox', { name: 'Attach technical details' }).isChecked()).resolves.toBe(
      true,
    );
    await form.getByText('See what is attached').click();
    await expect(page.getByTestId('feedback-environment').textContent()).resolves.toContain('Asia/Tokyo');
    await form.getByRole('button', { name: 'Send feedback' }).click();

    await expect
      .poll(() => page.getByTestId('feedback-sent').textContent(), UI_WAIT)
      .toBe('Thank you! Your message has been sent.');
    // The form starts over: no text, the first kind, details attached again.
    await expect(form.getByLabel('Your message').inputValue()).resolves.toBe('');
    await expect(form.getByLabel('Email for a reply (optional)').inputValue()).resolves.toBe('');
    await expect(form.getByRole('radio', { name: /Bug/ }).isChecked()).resolves.toBe(true);
    await expect(form.getByRole('checkbox', { name: 'Attach technical details' }).isChecked()).resolves.toBe(
      true,
    );
    const earlier = page.getByTestId('feedback-earlier');
    await earlier.getByText('Could the reader remember my place in long articles?').waitFor();
    await expect(earlier.getByText('Idea', { exact: true }).count()).resolves.toBe(1);

    const rows = await app.deps.orm.em.fork().find(Feedback, { user: user.user.id });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: 'idea',
      message: 'Could the reader remember my place in long articles?',
      contact: 'ada@example.test',
      context: {
        appVersion: '0.1.0',
        language: 'en',
        timeZone: 'Asia/Tokyo',
        extensionMarket: 'firefox',
        extensionVersion: '25.4.307',
        extensionMarketVersion: '142',
      },
    });
    expect(rows[0]?.context.userAgent).toMatch(/Chrome\//);

    // Typing again clears the thanks; unticked, nothing about the browser is sent.
    await form.getByLabel('Your message').fill('Second thought, no details.');
    await expect(page.getByTestId('feedback-sent').textContent()).resolves.toBe('');
    await form.getByRole('checkbox', { name: 'Attach technical details' }).uncheck();
    await expect(page.getByTestId('feedback-environment').count()).resolves.toBe(0);
    await form.getByRole('button', { name: 'Send feedback' }).click();
    await earlier.getByText('Second thought, no details.').waitFor();
    const second = await app.deps.orm.em.fork().findOneOrFail(Feedback, {
      user: user.user.id,
      message: 'Second thought, no details.',
    });
    expect(second).toMatchObject({ kind: 'bug', context: {} });
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('rate us', () => {
  test('the region’s store links, Safari not available, the browser from the user agent marked', async () => {
    const { context, page, errors } = await app.signIn('/personSetting/rateus');
    const rows = await stores(page);
    expect(rows.map((r) => [r.market, r.href, r.current])).toEqual([
      ['chrome', EXTENSION_STORE_LINKS.chrome, true],
      ['edge', EXTENSION_STORE_LINKS.edge, false],
      ['firefox', EXTENSION_STORE_LINKS.firefox, false],
      ['safari', null, false],
    ]);
    expect(rows[0]?.text).toContain('Your browser');
    expect(rows[3]?.text).toContain('Not available from this project');
    await expect(
      page.getByRole('link', { name: 'Rate it on Chrome Web Store' }).getAttribute('target'),
    ).resolves.toBe('_blank');
    await expect(page.getByTestId('rateus-tell-us').getByRole('link').getAttribute('href')).resolves.toBe(
      '/personSetting/feedback',
    );
    expect(errors).toEqual([]);
    await context.close();

    for (const [userAgent, market] of [
      [FIREFOX_UA, 'firefox'],
      [EDGE_UA, 'edge'],
    ]) {
      const other = await app.signIn('/personSetting/rateus', { userAgent });
      const marked = (await stores(other.page)).filter((r) => r.current).map((r) => r.market);
      expect(marked).toEqual([market]);
      await other.context.close();
    }
  });

  test("the extension's own mark on the page wins over the user agent", async () => {
    const { context, page } = await app.signIn();
    await context.addInitScript(markAsExtension, { mkt: 'edge' });
    await page.goto(app.url('/personSetting/rateus'));
    expect((await stores(page)).filter((r) => r.current).map((r) => r.market)).toEqual(['edge']);
    await context.close();
  });
});

describe('rate us in mainland China', () => {
  const chn = e2eFixture({ env: { REGION: 'chn' }, browser: { timeout: 20_000 } });

  test("Chrome links to the deployment's own download page, the stores reachable there to their listings", async () => {
    const { context, page, errors } = await chn.signIn('/personSetting/rateus');
    const rows = await stores(page);
    expect(rows.map((r) => [r.market, r.href])).toEqual([
      ['chrome', EXTENSION_CHN_LINKS.chrome],
      ['edge', EXTENSION_CHN_LINKS.edge],
      ['firefox', EXTENSION_CHN_LINKS.firefox],
      ['safari', null],
    ]);
    await expect(page.locator('.store[data-market="chrome"] a').getAttribute('target')).resolves.toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });
});
