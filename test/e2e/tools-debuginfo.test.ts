// The environment debug page in Chromium: the app's version, build, region and membership, the
// browser's facts, the extension's marks on <html> (read as the extension writes them), the
// server's health with its round trip, and a Copy button that puts the whole report on the clipboard.
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { BUILD } from '../../src/constants.ts';
import { e2eFixture } from '../helpers/e2e.ts';

const app = e2eFixture({ env: { REGION: 'euro' }, browser: { clipboard: true } });

const UI_WAIT = { timeout: 20_000 };

/** The value shown for a fact (`section-row`), without the isolating marks around it. */
const fact = (page: Page, id: string) =>
  page
    .getByTestId(`debug-${id}`)
    .locator('dd')
    .textContent()
    .then((text) => text?.trim());

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

describe('the debug information page in Chromium', () => {
  test('app, browser and server facts; the extension once it marks the page; Copy gives the report as shown', async () => {
    const { page, user, context, errors } = await app.signIn('/personSetting/debuginfo', {
      viewport: { width: 1100, height: 760 },
      deviceScaleFactor: 2,
      timezoneId: 'Asia/Tokyo',
      colorScheme: 'dark',
    });
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Debug information');

    // The app: the server's version, this install's region, membership off.
    await expect.poll(() => fact(page, 'app-version'), UI_WAIT).toBe(BUILD.version);
    expect(await fact(page, 'app-region')).toBe('euro');
    expect(await fact(page, 'app-membership')).toBe('Off');
    expect(await fact(page, 'app-build')).toBe(`${BUILD.appId} · ${BUILD.endpoint} · ${BUILD.profile}`);
    expect(await fact(page, 'app-account')).toBe(user.user.accountId);

    // The browser, as this context is set up.
    expect(await fact(page, 'browser-user-agent')).toBe(await page.evaluate(() => navigator.userAgent));
    expect(await fact(page, 'browser-languages')).toBe('en-US');
    expect(await fact(page, 'browser-time-zone')).toBe('Asia/Tokyo');
    expect(await fact(page, 'browser-window')).toBe('1100 × 760');
    expect(await fact(page, 'browser-pixel-ratio')).toBe('2');
    expect(await fact(page, 'browser-colour-scheme')).toBe('Dark');
    expect(await fact(page, 'browser-cookies')).toBe('Available');
    expect(await fact(page, 'browser-local-storage')).toBe('Available');

    // No extension has marked the page.
    expect(await fact(page, 'extension-status')).toBe('Not installed');

    // The server answers /healthz: OK, and the round trip in milliseconds. Which check failed it
    // tells only its operator, so the page shows no checks of its own.
    await expect.poll(() => fact(page, 'server-health'), UI_WAIT).toBe('OK');
    expect(await fact(page, 'server-round-trip')).toMatch(/^\d+ ms$/);
    expect(await page.locator('[data-testid^="debug-server-check-"]').count()).toBe(0);

    // The extension writes its marks after the page has loaded: the page reads them as they come.
    await page.evaluate(() => {
      const root = document.documentElement;
      root.setAttribute('mkt', 'edge');
      root.setAttribute('v', '25.4.307');
      root.setAttribute('mktv', '25.4.301');
    });
    await expect.poll(() => fact(page, 'extension-market'), UI_WAIT).toBe('edge');
    expect(await fact(page, 'extension-version')).toBe('25.4.307');
    expect(await fact(page, 'extension-market-version')).toBe('25.4.301');
    expect(await page.getByTestId('debug-extension-status').count()).toBe(0);

    // Check again measures again.
    await page.getByTestId('debug-recheck').click();
    await expect.poll(() => fact(page, 'server-round-trip'), UI_WAIT).toMatch(/^\d+ ms$/);

    // Copy: the report as plain text, every fact as shown.
    await page.getByTestId('debug-copy').click();
    await expect.poll(() => clipboard(page), UI_WAIT).toContain('Margin debug report');
    const report = await clipboard(page);
    for (const line of [
      '[App]',
      `App version: ${BUILD.version}`,
      'Region: euro',
      'Membership: Off',
      `Account ID: ${user.user.accountId}`,
      'Time zone: Asia/Tokyo',
      'Device pixel ratio: 2',
      '[Browser extension]',
      'Store (mkt): edge',
      'Version (v): 25.4.307',
      'Store version (mktv): 25.4.301',
      '[Server]',
      'Health: OK',
    ])
      expect(report).toContain(`${line}\n`);
    expect(report).toContain(`User agent: ${await page.evaluate(() => navigator.userAgent)}\n`);
    expect(report).toMatch(/\nRound trip: \d+ ms\n/);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('marks set before the app starts are read at once; one missing is said so', async () => {
    const { page, context } = await app.signIn(undefined, {});
    // As a content script at document_end: the page is parsed, the app has not started.
    await context.addInitScript(() => {
      document.addEventListener('readystatechange', () => {
        if (document.readyState !== 'interactive') return;
        document.documentElement.setAttribute('mkt', 'firefox');
        document.documentElement.setAttribute('v', '25.4.307');
      });
    });
    await page.goto(app.url('/personSetting/debuginfo'));
    await expect.poll(() => fact(page, 'extension-market'), UI_WAIT).toBe('firefox');
    expect(await fact(page, 'extension-version')).toBe('25.4.307');
    expect(await fact(page, 'extension-market-version')).toBe('Not given');
    await context.close();
  });
});
