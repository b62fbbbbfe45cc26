import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { SETTINGS_SECTIONS } from '../../client/pages/settings/settings-pages.ts';
import { CoreType } from '../../src/enums.ts';
import { flattenMessages } from '../../src/i18n/keys.ts';
import ar from '../../src/i18n/locales/ar.json' with { type: 'json' };
import de from '../../src/i18n/locales/de.json' with { type: 'json' };
import en from '../../src/i18n/locales/en.json' with { type: 'json' };
import zhCN from '../../src/i18n/locales/zh-CN.json' with { type: 'json' };
import { newId } from '../../src/rules/id.ts';
import { e2eFixture } from '../helpers/e2e.ts';
import { makeClippedNote } from '../helpers/notes.ts';
import { signedInUser } from '../helpers/users.ts';

// The first load carries the words of the first screen only (client/first-screen-namespaces.ts);
// every other page brings its own before it renders (client/screen-words.ts). Here every lazy
// page (each settings screen, the highlight list, daily notes, the reader with a colour of the
// user's own, the sign-in pages and 404), opened first or after the home list, in a language
// other than English, shows its words and never a raw key, and switching the language there
// turns them too.
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

const READER_TEXT =
  'When the snow melts in the high valleys, the rivers rise quickly and carry cold water down.';

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

  // Which words a screen loads does not depend on the language, and the check for English holds
  // in any other: one language walks the settings screens (three dozen page loads).
  test.runIf(language === 'zh-CN')('every settings screen', { timeout: 90_000 }, async () => {
    const user = await signedInUser(app.deps, undefined, 'UTC', language);
    const { page, context } = await app.signIn(undefined, { user, locale: language });
    const loading = messages.get('app.loading') ?? 'app.loading';
    for (const settingsPage of SETTINGS_SECTIONS.flatMap((section) => section.pages)) {
      const path = `/personSetting/${settingsPage}`;
      await page.goto(app.url(path));
      await page.locator(`html[lang="${language}"]`).waitFor();
      await page.getByTestId(`settings-${settingsPage}`).waitFor();
      await page.waitForLoadState('networkidle');
      // The screen, not its loading line.
      await page.waitForFunction(
        (text) => !document.querySelector('.settings-body')?.textContent?.includes(text),
        loading,
      );
      expect({ path, untranslated: await untranslated(page, messages) }).toEqual({ path, untranslated: [] });
    }
    await context.close();
  });

  test('the reader, with a colour of the user’s own', async () => {
    const user = await signedInUser(app.deps, undefined, 'UTC', language);
    // Slot 3 in a colour of the user's: its name is its number (colorTheme.slotName).
    await user.caller.settings.update({ c3: '#E53935' });
    const note = await makeClippedNote(app.deps, user.user.id, { title: 'Rivers', text: READER_TEXT });
    await user.caller.highlights.create({
      id: newId(),
      noteId: note.id,
      coreType: CoreType.textNote,
      text: 'A passage about the rivers.',
    });
    const { page, context } = await app.signIn(undefined, { user, locale: language });
    const reader = `/?pi=${note.id}&vs=article`;
    await page.goto(app.url(reader));
    await page.getByTestId('reader-content').waitFor();
    await page.waitForLoadState('networkidle');
    await page.evaluate((wanted) => {
      const paragraph = document.querySelector('.reader-content p') as HTMLElement;
      const text = paragraph.firstChild as Text;
      const at = text.data.indexOf(wanted);
      const range = document.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + wanted.length);
      document.getSelection()?.removeAllRanges();
      document.getSelection()?.addRange(range);
    }, 'rivers rise');
    await page.keyboard.press('Shift');
    await page.getByTestId('selection-tooltip').waitFor();
    expect(await page.getByTestId('tooltip-colour-3').getAttribute('aria-label')).toBe(
      `${messages.get('colorTheme.slotName')?.replace('{{number}}', '3')} (3)`,
    );
    expect({ path: reader, untranslated: await untranslated(page, messages) }).toEqual({
      path: reader,
      untranslated: [],
    });
    await context.close();
  });

  test('the sign-in pages and 404, signed out', async () => {
    const signedOut = await app.open(undefined, { locale: language });
    for (const { path, ready } of [
      { path: '/login', ready: 'login-form' },
      { path: '/register', ready: 'register-form' },
      { path: '/forget', ready: 'forget-form' },
      { path: '/no-such-page', ready: 'not-found' },
    ]) {
      await signedOut.page.goto(app.url(path));
      await signedOut.page.locator(`html[lang="${language}"]`).waitFor();
      await signedOut.page.getByTestId(ready).waitFor();
      await signedOut.page.waitForLoadState('networkidle');
      expect({ path, untranslated: await untranslated(signedOut.page, messages) }).toEqual({
        path,
        untranslated: [],
      });
    }
    await signedOut.context.close();
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
