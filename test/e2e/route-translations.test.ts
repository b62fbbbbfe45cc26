import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { flattenMessages } from '../../src/i18n/keys.ts';
import ar from '../../src/i18n/locales/ar.json' with { type: 'json' };
import de from '../../src/i18n/locales/de.json' with { type: 'json' };
import en from '../../src/i18n/locales/en.json' with { type: 'json' };
import zhCN from '../../src/i18n/locales/zh-CN.json' with { type: 'json' };
import { e2eFixture } from '../helpers/e2e.ts';
import { signedInUser } from '../helpers/users.ts';

// The first load carries the words of the first screen only (client/first-screen-namespaces.ts);
// every other page brings its own before it renders. Here each lazy page, opened first or after
// the home list, in a language other than English, shows its words and never a raw key, and
// switching the language there turns them too.
const app = e2eFixture();

const ENGLISH = flattenMessages(en);
const KEYS = [...ENGLISH.keys()];

/** The pages loaded on demand, and what shows each is drawn (its words with it). */
const LAZY_PAGES = [
  { path: '/personSetting/user', ready: 'settings-user' },
  { path: '/personSetting/color', ready: 'colour-theme-reset' },
  { path: '/personSetting/synctoken', ready: 'tokens-empty' },
  { path: '/highlights', ready: 'highlight-list-empty' },
  { path: '/daily', ready: 'daily' },
] as const;

/** The raw keys in the page's text, and the English strings that the page's language has otherwise. */
async function untranslated(page: Page, locale: Map<string, string>): Promise<string[]> {
  // biome-ignore lint/performance/useDomNodeTextContent: what is shown, not the hidden kept-alive pages
  const text = await page.locator('body').innerText();
  const rawKeys = KEYS.filter((key) => text.includes(key));
  const english = [...ENGLISH].filter(
    ([key, value]) => value.length >= 12 && locale.get(key) !== value && text.includes(value),
  );
  return [...rawKeys, ...english.map(([key, value]) => `${key}: ${value}`)];
}

describe.each([
  { language: 'zh-CN', messages: flattenMessages(zhCN) },
  { language: 'ar', messages: flattenMessages(ar) },
])('lazy pages in $language', ({ language, messages }) => {
  test('each page opened first shows its own words, no raw key and no English', async () => {
    const user = await signedInUser(app.deps, undefined, 'UTC', language);
    const { page, context } = await app.signIn(undefined, { user, locale: language });
    for (const { path, ready } of LAZY_PAGES) {
      await page.goto(app.url(path));
      await page.locator(`html[lang="${language}"]`).waitFor();
      await page.getByTestId(ready).waitFor();
      await page.waitForLoadState('networkidle');
      expect({ path, untranslated: await untranslated(page, messages) }).toEqual({ path, untranslated: [] });
    }
    await context.close();
  });

  test('pages opened from the home list, and a switch of language there, show their words', async () => {
    const user = await signedInUser(app.deps, undefined, 'UTC', language);
    const { page, context } = await app.signIn('/', { user, locale: language });
    await page.getByTestId('home').waitFor();
    await page.locator('[data-nav="settings"], a[href="/personSetting/user"]').first().click();
    await page.getByTestId('settings-user').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await untranslated(page, messages)).toEqual([]);

    await page.locator('a[href="/highlights"]').first().click();
    await page.getByTestId('highlight-list-empty').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await untranslated(page, messages)).toEqual([]);

    // Another language now: the words of every page opened so far follow it.
    const german = flattenMessages(de);
    await page.getByTestId('language-select').selectOption('de');
    await page.locator('html[lang="de"]').waitFor();
    await page.waitForLoadState('networkidle');
    await expect.poll(() => untranslated(page, german)).toEqual([]);
    await page.locator('a[href="/personSetting/user"]').first().click();
    await page.getByTestId('settings-user').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await untranslated(page, german)).toEqual([]);
    await context.close();
  });
});
