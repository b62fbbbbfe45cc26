import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { authenticateApiToken } from '../../server/domain/openapi/api-tokens.ts';
import { e2eFixture } from '../helpers/e2e.ts';

const app = e2eFixture({ browser: { clipboard: true } });

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());
const focusedTestId = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);

describe('the API and daily note page in Chromium', () => {
  test('a token: created with its scopes and expiry, shown once with a copy button, listed with its last use, revoked after asking', async () => {
    const { page, user, errors } = await app.signIn('/personSetting/openapi');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('API and daily note');
    await page.getByTestId('api-tokens-empty').waitFor();

    await page.getByLabel('Name', { exact: true }).fill('iPhone Shortcuts');
    // Read is ticked to start with; Daily note is added.
    await expect(page.getByRole('checkbox', { name: 'Read', exact: true }).isChecked()).resolves.toBe(true);
    await page.getByRole('checkbox', { name: 'Daily note', exact: true }).check();
    await page.getByTestId('api-token-expiry').selectOption({ label: 'In 30 days' });
    await page.getByRole('button', { name: 'Create token' }).click();

    // Shown once, in a dialog, with Copy focused.
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading').textContent()).resolves.toBe('Your new API token');
    await dialog
      .getByText('Copy it now and keep it safe: it won’t be shown again.', { exact: false })
      .waitFor();
    const token = (await page.getByTestId('new-api-token-value').textContent()) ?? '';
    expect(token).toMatch(/^mapi_[\w-]{43}$/);
    await expect.poll(() => focusedTestId(page)).toBe('copy-api-token');
    await page.getByTestId('copy-api-token').click();
    await expect.poll(() => clipboard(page)).toBe(token);

    // A click beside the dialog does not lose the token; Done does close it.
    await page.mouse.click(5, 5);
    await expect(dialog.isVisible()).resolves.toBe(true);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('name');

    const row = page.getByTestId('api-token');
    await row.getByText('iPhone Shortcuts').waitFor();
    await expect(row.getByTestId('api-token-hint').textContent()).resolves.toBe(`${token.slice(0, 9)}…`);
    await expect(row.getByRole('list', { name: 'Allowed to' }).textContent()).resolves.toBe('ReadDaily note');
    await expect(row.textContent()).resolves.toContain('Never used');
    // The date is set in its own direction inside the sentence (Unicode isolates around it).
    const expiry = await row.getByTestId('api-token-expiry').textContent();
    expect(expiry?.replace(/[\u2068\u2069]/g, '')).toBe('Expires Apr 13, 2026');
    const [listed] = await user.caller.openapi.tokens();
    expect(listed).toMatchObject({ name: 'iPhone Shortcuts', scopes: ['read', 'daily'] });
    expect((listed?.expiresAt?.getTime() ?? 0) - (listed?.createdAt.getTime() ?? 0)).toBe(30 * 86_400_000);

    // Never again on the page, not even after a reload; once used, the list says so.
    await expect(page.getByText(token).count()).resolves.toBe(0);
    expect(await authenticateApiToken(app.deps.orm.em.fork(), token)).not.toBeNull();
    await page.reload();
    await row.getByText('Last used').waitFor();
    await expect(page.content()).resolves.not.toContain(token.slice(9));

    // Revoke asks first; Cancel keeps it.
    await row.getByRole('button', { name: 'Revoke' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm.getByRole('heading').textContent()).resolves.toBe('Revoke “iPhone Shortcuts”?');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await expect(user.caller.openapi.tokens()).resolves.toHaveLength(1);
    await row.getByRole('button', { name: 'Revoke' }).click();
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await page.getByTestId('api-tokens-empty').waitFor();
    await expect(user.caller.openapi.tokens()).resolves.toEqual([]);
    expect(await authenticateApiToken(app.deps.orm.em.fork(), token)).toBeNull();
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test('a token without a name or a scope is not made; the form says what is missing', async () => {
    const { page, user } = await app.signIn('/personSetting/openapi');
    await page.getByTestId('api-tokens-empty').waitFor();
    await page.getByRole('checkbox', { name: 'Read', exact: true }).uncheck();
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByText('Cannot be empty').waitFor();
    await page.getByText('Choose at least one scope.').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('name');

    await page.getByLabel('Name', { exact: true }).fill('Script');
    await page.getByRole('button', { name: 'Create token' }).click();
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value))
      .toBe('read');
    await expect(user.caller.openapi.tokens()).resolves.toEqual([]);
    await page.context().close();
  });

  test('the examples carry this server’s address and copy as shown; the docs open in a new tab', async () => {
    const { page } = await app.signIn('/personSetting/openapi');
    const origin = new URL(app.url()).origin;
    const examples = page.getByTestId('api-examples');

    const curl = (await examples.getByTestId('example-curl').textContent()) ?? '';
    expect(curl).toContain(`curl "${origin}/openapi/v1/notes"`);
    expect(curl).toContain('Authorization: Bearer YOUR_API_TOKEN');
    await page.getByTestId('copy-example-curl').click();
    await expect.poll(() => clipboard(page)).toBe(curl);

    const fetchCode = (await examples.getByTestId('example-fetch').textContent()) ?? '';
    expect(fetchCode).toContain(`fetch('${origin}/openapi/v1/notes'`);
    expect(fetchCode).toContain("method: 'POST'");
    expect(fetchCode).toContain("JSON.stringify({ url: 'https://example.com/article' })");

    const shortcut = examples.getByTestId('example-shortcuts');
    await expect(shortcut.locator('li').count()).resolves.toBe(5);
    await expect(shortcut.textContent()).resolves.toContain('“Ask for Input”');
    await expect(shortcut.textContent()).resolves.toContain('“Get Contents of URL”');
    await expect(shortcut.getByTestId('shortcuts-url').textContent()).resolves.toBe(
      `${origin}/openapi/v1/daily/today/append`,
    );
    await expect(shortcut.getByTestId('shortcuts-header').textContent()).resolves.toBe(
      'Bearer YOUR_API_TOKEN',
    );

    for (const [testId, href] of [
      ['api-docs-link', '/openapi/docs'],
      ['api-document-link', '/openapi/v1/openapi.json'],
    ]) {
      const link = examples.getByTestId(testId ?? '');
      await expect(link.getAttribute('href')).resolves.toBe(href);
      await expect(link.getAttribute('target')).resolves.toBe('_blank');
      await expect(link.getAttribute('rel')).resolves.toBe('noopener noreferrer');
    }
    await page.context().close();
  });

  test('at 360 px in Arabic the page reads right to left and nothing but the code scrolls sideways', async () => {
    const user = await app.user();
    await user.caller.openapi.createToken({ name: 'اختصارات', scopes: ['daily'], expiresInDays: 7 });
    const { page } = await app.signIn('/personSetting/openapi', {
      user,
      viewport: { width: 360, height: 740 },
      locale: 'ar',
    });
    await page.locator('html[dir="rtl"]').waitFor();
    await page.getByTestId('api-token').waitFor();
    await page.getByTestId('example-curl').waitFor();
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(360);
    // Code stays left to right inside the right-to-left page.
    await expect(
      page.getByTestId('example-fetch').evaluate((pre) => getComputedStyle(pre).direction),
    ).resolves.toBe('ltr');
    await page.context().close();
  });
});
