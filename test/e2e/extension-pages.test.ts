// The browser extension's pages in Chromium, against the real server: its settings (tooltip style,
// colours and recorded shortcuts) saved to the account and read back by the extension's own API;
// the plugins page's store links by region, the packages this server built and its address; and
// the "Plugin version is too low" banner an outdated extension's marks on <html> bring up.
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { EXTENSION_VERSIONS } from '../../src/constants.ts';
import { TextTooltipStyle } from '../../src/enums.ts';
import { EXTENSION_CHN_LINKS, EXTENSION_STORE_LINKS } from '../../src/regions.ts';
import { DEFAULT_SHORTCUTS, type ExtensionSettings } from '../../src/schemas/extension.ts';
import { e2eFixture } from '../helpers/e2e.ts';
import { extensionUser } from '../helpers/extension.ts';

/** Waits for the UI: far beyond what a loaded machine needs (expect.poll's default is 1 s). */
const UI_WAIT = { timeout: 20_000 };

/** The oldest extension this server accepts. */
const MIN_VERSION = '25.4.307';

const app = e2eFixture({ env: { EXTENSION_MIN_VERSION: MIN_VERSION }, browser: { timeout: 20_000 } });

/** The preferences as the extension receives them (GET /openapi/v1/extension/settings). */
async function extensionSettings(headers: Record<string, string>): Promise<ExtensionSettings> {
  const response = await fetch(app.url('/openapi/v1/extension/settings'), { headers });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { code: number; data: ExtensionSettings };
  expect(body.code).toBe(1);
  return body.data;
}

/** The store rows: which browser, where its button goes and what it says. */
async function stores(page: Page) {
  await page.getByTestId('store-list').waitFor();
  return page.locator('.store').evaluateAll((rows) =>
    rows.map((row) => ({
      market: row.getAttribute('data-market'),
      href: row.querySelector('a')?.getAttribute('href') ?? null,
      label: row.querySelector('a')?.getAttribute('aria-label') ?? null,
      text: row.textContent ?? '',
    })),
  );
}

/** What the extension's content script does on the app's pages: its marks on <html>. */
const markVersion = (page: Page, version: string) =>
  page.evaluate((v) => {
    document.documentElement.setAttribute('mkt', 'chrome');
    document.documentElement.setAttribute('v', v);
    document.documentElement.setAttribute('mktv', v);
  }, version);

describe('extension settings', () => {
  test('tooltip style, a colour and a recorded shortcut: saved, kept on reload and what the extension reads; another user untouched', async () => {
    const bystander = await app.user();
    const user = await extensionUser(app.deps, app.url());
    const { page, context, errors } = await app.signIn('/personSetting/extsettings', { user });
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Extension settings');
    await expect(
      page.getByTestId('extsettings-install').getByRole('link').getAttribute('href'),
    ).resolves.toBe('/personSetting/plugins');

    await page.getByTestId(`tooltip-style-choice-${TextTooltipStyle.autoHighlight}`).click();
    await page.getByTestId('colour-hex-2').fill('#123456');

    // A combination pressed in the focused field is the shortcut.
    const highlight = page.getByTestId('shortcut-input-highlight');
    await highlight.click();
    await expect.poll(() => highlight.getAttribute('data-listening')).toBe('true');
    expect(await highlight.inputValue()).toBe('');
    expect(await highlight.getAttribute('placeholder')).toBe('Press keys…');
    await page.keyboard.press('Control+Shift+K');
    await expect.poll(() => highlight.inputValue(), UI_WAIT).toBe('Ctrl+Shift+K');
    await expect
      .poll(async () => (await user.caller.settings.get()).shortcuts, UI_WAIT)
      .toEqual({ ...DEFAULT_SHORTCUTS, highlight: 'Ctrl+Shift+K' });
    await expect.poll(async () => (await user.caller.settings.get()).c2, UI_WAIT).toBe('#123456');
    expect((await user.caller.settings.get()).textTooltipStyle).toBe(TextTooltipStyle.autoHighlight);

    // Taken by another action, or no modifier: said why, nothing saved; Escape gives the saved one back.
    const save = page.getByTestId('shortcut-input-save');
    await save.click();
    await page.keyboard.press('Control+Shift+K');
    await page.getByText('Each shortcut must be different.').waitFor();
    expect(await save.inputValue()).toBe('Ctrl+Shift+K');
    expect(await save.getAttribute('aria-invalid')).toBe('true');
    await page.keyboard.press('J');
    await page
      .getByText('Use one or more of Ctrl, Alt, Shift and Meta with a letter or digit, e.g. Alt+Shift+H.')
      .waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => save.inputValue()).toBe('Alt+Shift+S');
    expect(await save.getAttribute('aria-invalid')).toBeNull();
    expect((await user.caller.settings.get()).shortcuts?.save).toBe('Alt+Shift+S');

    // Kept on reload, and what the extension is given.
    await page.reload();
    await expect
      .poll(() => page.getByTestId('shortcut-input-highlight').inputValue(), UI_WAIT)
      .toBe('Ctrl+Shift+K');
    await expect(
      page
        .getByTestId(`tooltip-style-choice-${TextTooltipStyle.autoHighlight}`)
        .getByRole('radio')
        .isChecked(),
    ).resolves.toBe(true);
    expect(await page.getByTestId('colour-hex-2').inputValue()).toBe('#123456');
    const read = await extensionSettings(user.headers);
    expect(read.textTooltipStyle).toBe(TextTooltipStyle.autoHighlight);
    expect(read.colours.c2).toBe('#123456');
    expect(read.shortcuts).toEqual({ ...DEFAULT_SHORTCUTS, highlight: 'Ctrl+Shift+K' });

    // Back to the default shortcuts.
    await page.getByTestId('shortcuts-reset').click();
    await expect
      .poll(() => page.getByTestId('shortcut-input-highlight').inputValue(), UI_WAIT)
      .toBe(DEFAULT_SHORTCUTS.highlight);
    await expect.poll(async () => (await user.caller.settings.get()).shortcuts, UI_WAIT).toBeNull();
    expect(await page.getByTestId('shortcuts-reset').isDisabled()).toBe(true);
    expect((await extensionSettings(user.headers)).shortcuts).toEqual(DEFAULT_SHORTCUTS);

    expect(await bystander.caller.settings.get()).toMatchObject({
      textTooltipStyle: null,
      c2: null,
      shortcuts: null,
    });
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the plugins page', () => {
  test("the region's store links with their versions, Safari from the App Store only, this server's packages and address", async () => {
    const { page, context, errors, user } = await app.signIn('/personSetting/plugins', { clipboard: true });
    const { extension } = await user.caller.system.info();
    const rows = await stores(page);
    expect(rows.map((r) => [r.market, r.href, r.label])).toEqual([
      ['chrome', EXTENSION_STORE_LINKS.chrome, 'Install from Chrome Web Store'],
      ['edge', EXTENSION_STORE_LINKS.edge, 'Install from Microsoft Edge Add-ons'],
      ['firefox', EXTENSION_STORE_LINKS.firefox, 'Install from Firefox Browser Add-ons'],
      ['safari', EXTENSION_STORE_LINKS.safari, 'Install from App Store'],
    ]);
    for (const row of rows)
      expect(row.text).toContain(
        `Version ${EXTENSION_VERSIONS[row.market as keyof typeof EXTENSION_VERSIONS]}`,
      );
    await expect(page.getByTestId('safari-note').textContent()).resolves.toBe(
      'Only from the App Store: this project does not build the Safari extension, which needs Xcode on a Mac.',
    );

    // The packages are the ones this server says it built, each a zip it serves.
    await page.getByRole('heading', { name: 'Self-hosted: download' }).waitFor();
    if (extension.downloads.length === 0) {
      await expect(page.getByTestId('downloads-not-built').textContent()).resolves.toContain(
        'npm run build:extension',
      );
    } else {
      await page.getByTestId('downloads').waitFor();
      const shown = await page
        .locator('.extension-download')
        .evaluateAll((items) => items.map((item) => item.getAttribute('data-testid')));
      expect(shown).toEqual(extension.downloads.map((browser) => `download-${browser}`));
      for (const browser of extension.downloads) {
        const link = page.getByTestId(`download-link-${browser}`);
        expect(await link.getAttribute('href')).toBe(`/downloads/extension/${browser}`);
        const zip = await fetch(app.url(`/downloads/extension/${browser}`));
        expect(zip.status).toBe(200);
        expect(
          Buffer.from(await zip.arrayBuffer())
            .subarray(0, 2)
            .toString(),
        ).toBe('PK');
      }
      if (extension.downloads.includes('chrome')) {
        const steps = await page.getByTestId('download-chrome').locator('ol').textContent();
        expect(steps).toContain('chrome://extensions');
        expect(steps).toContain('Turn on Developer mode.');
        expect(steps).toContain('Click Load unpacked and choose the unzipped folder.');
      }
      if (extension.downloads.includes('firefox')) {
        const item = page.getByTestId('download-firefox');
        expect(await item.locator('ol').textContent()).toContain('about:debugging#/runtime/this-firefox');
        expect(await item.locator('ol').textContent()).toContain('Load Temporary Add-on…');
        expect(await page.getByTestId('firefox-temporary').textContent()).toContain(
          'xpinstall.signatures.required',
        );
      }
    }

    // This server's address, to paste into the extension's popup.
    const origin = new URL(app.url()).origin;
    await expect(page.getByTestId('server-address').textContent()).resolves.toBe(origin);
    await page.getByRole('button', { name: 'Copy address' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()), UI_WAIT).toBe(origin);
    await expect(
      page.getByRole('link', { name: 'Extension settings' }).last().getAttribute('href'),
    ).resolves.toBe('/personSetting/extsettings');
    expect(errors).toEqual([]);
    await context.close();
  });

  describe('in mainland China', () => {
    const chn = e2eFixture({ env: { REGION: 'chn' }, browser: { timeout: 20_000 } });

    test("Chrome is the deployment's own download, the other stores their listings", async () => {
      const { page, context, errors } = await chn.signIn('/personSetting/plugins');
      const rows = await stores(page);
      expect(rows.map((r) => [r.market, r.href])).toEqual([
        ['chrome', EXTENSION_CHN_LINKS.chrome],
        ['edge', EXTENSION_CHN_LINKS.edge],
        ['firefox', EXTENSION_CHN_LINKS.firefox],
        ['safari', EXTENSION_CHN_LINKS.safari],
      ]);
      await expect(page.locator('.store[data-market="chrome"] a').getAttribute('target')).resolves.toBeNull();
      expect(errors).toEqual([]);
      await context.close();
    });
  });
});

describe('"Plugin version is too low"', () => {
  test('an extension below the minimum brings the banner, with both versions, on every page; at or above it, none; dismissed, it stays away', async () => {
    const { page, context, errors } = await app.signIn();
    const bannerCode: string[] = [];
    page.on('request', (request) => {
      if (/ExtensionUpdateBanner/.test(request.url())) bannerCode.push(request.url());
    });
    await page.goto(app.url('/'));
    await page.getByTestId('sidebar-style').waitFor();
    await page.waitForLoadState('networkidle');
    // No extension: the banner's code is not even loaded.
    expect(bannerCode).toEqual([]);

    const banner = page.getByTestId('extension-update-banner');
    await markVersion(page, '25.4.306');
    await banner.waitFor();
    await expect(banner.locator('p').textContent()).resolves.toBe(
      `Plugin version is too low, please update (25.4.306 -> ${MIN_VERSION})`,
    );
    await banner.getByRole('link', { name: 'Update the extension' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/personSetting/plugins');
    await page.getByTestId('store-list').waitFor();
    expect(await banner.isVisible()).toBe(true);

    await markVersion(page, MIN_VERSION);
    await banner.waitFor({ state: 'detached' });
    await markVersion(page, '1.0');
    await banner.waitFor();
    // Compared part by part: 25.10 is newer than 25.4.
    await markVersion(page, '25.10.1');
    await banner.waitFor({ state: 'detached' });

    // Dismissed: gone, and still gone for that version after a reload in this tab; another is said again.
    await markVersion(page, '25.4.306');
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await banner.waitFor({ state: 'detached' });
    await page.goto(app.url('/personSetting/extsettings'));
    await page.getByTestId('shortcut-input-highlight').waitFor();
    await markVersion(page, '25.4.305');
    await banner.waitFor();
    await markVersion(page, '25.4.306');
    await banner.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await context.close();
  });
});
