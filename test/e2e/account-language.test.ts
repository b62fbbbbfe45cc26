import { describe, expect, test } from 'vitest';
import { e2eFixture } from '../helpers/e2e.ts';
import { signedInUser, userWithPassword } from '../helpers/users.ts';

// Signed in, the app reads in the account's language, whatever the browser's or the region's.
const app = e2eFixture();

describe('the account’s language in a new browser', () => {
  test('signing in as a German account in an English browser turns the app German, unasked', async () => {
    await userWithPassword(app.deps, 'deutsch@example.test', 'ein gutes Passwort 1', 'de');
    const { page, context } = await app.open('/login', { locale: 'en-US' });
    await page.locator('html[lang="en"]').waitFor();
    await page.getByLabel('Email').fill('deutsch@example.test');
    await page.getByLabel('Password', { exact: true }).fill('ein gutes Passwort 1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(app.url('/'));
    await page.locator('html[lang="de"]').waitFor();
    await expect(page.getByTestId('language-select').inputValue()).resolves.toBe('de');
    await context.close();
  });

  test('a page loaded with a session of a German account is German from its first render', async () => {
    const user = await signedInUser(app.deps, undefined, 'UTC', 'de');
    const { page, context } = await app.signIn(undefined, { user, locale: 'en-US' });
    const firstRenderLanguages: string[] = [];
    await page.exposeFunction('noteLanguage', (lang: string) => firstRenderLanguages.push(lang));
    await page.addInitScript(() => {
      new MutationObserver((_, observer) => {
        if (!document.getElementById('root')?.firstChild) return;
        (window as unknown as { noteLanguage(lang: string): void }).noteLanguage(
          document.documentElement.lang,
        );
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(app.url('/'));
    await page.locator('html[lang="de"]').waitFor();
    await expect.poll(() => firstRenderLanguages).toEqual(['de']);
    await context.close();
  });
});
