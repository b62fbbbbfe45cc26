import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { e2eFixture } from '../helpers/e2e.ts';

const app = e2eFixture({ workers: true, smtp: true });

const EMAIL = 'reader@example.test';
const FIRST_PASSWORD = 'first password 1';
const SECOND_PASSWORD = 'second password 2';

const pathOf = (page: Page) => new URL(page.url()).pathname;

async function signIn(page: Page, password: string): Promise<void> {
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Types a code request, reads the code the worker delivered to the SMTP sink, and fills it in. */
async function fillEmailedCode(page: Page, email: string): Promise<string> {
  const since = app.smtp.messages.length;
  await page.getByTestId('get-code').click();
  const code = await app.smtp.code(email, since);
  // The mail can arrive before the button has re-rendered on a loaded machine: wait for the countdown.
  await expect.poll(() => page.getByTestId('get-code').textContent()).toMatch(/\d+ s/);
  await page.locator('input[name="code"]').fill(code);
  return app.smtp.messages.at(-1)?.subject ?? '';
}

describe('accounts in Chromium', () => {
  test('sign-up: shared validation messages under the fields, a code from the mail, then signed in', async () => {
    const { page } = await app.open('/register');
    await page.getByRole('button', { name: 'Sign up' }).click();
    const email = page.getByLabel('Email');
    await expect(email.getAttribute('aria-invalid')).resolves.toBe('true');
    const describedBy = await email.getAttribute('aria-describedby');
    await expect(page.locator(`#${describedBy}`).textContent()).resolves.toBe('Email is Empty');
    // Focus moves to the first invalid field once the messages have rendered.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('email');

    await email.fill(EMAIL);
    await fillEmailedCode(page, EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(FIRST_PASSWORD);
    await page.getByLabel('Repeat password').fill('something else');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByText('The passwords do not match.').waitFor();

    await page.getByLabel('Repeat password').fill(FIRST_PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(app.url('/'));
    await page
      .getByTestId('account-menu')
      .getByText(/^nick\d+$/)
      .waitFor();

    // The account page shows the new, still anonymous account.
    await page.goto(app.url('/personSetting/user'));
    await page.getByTestId('anonymous-badge').waitFor();
    // Membership is off here (the default): every feature is open, so no plan is shown.
    await expect(page.getByTestId('plan').count()).resolves.toBe(0);
    await page.context().close();
  });

  test('sign-out, a refused sign-in, and settings that send a signed-out user through /login and back', async () => {
    const { page } = await app.open('/personSetting/user');
    await page.waitForURL(/\/login\?next=%2FpersonSetting%2Fuser$/);
    await signIn(page, 'not the password');
    await page.getByText('Login Failed').waitFor();

    await signIn(page, FIRST_PASSWORD);
    await page.waitForURL(app.url('/personSetting/user'));
    const nickname = page.getByLabel('Nickname');
    await nickname.fill('Marginalia');
    await nickname.press('Enter');
    await page.getByTestId('account-menu').getByText('Marginalia', { exact: true }).waitFor();
    await expect(page.getByTestId('anonymous-badge').count()).resolves.toBe(0);

    // Unbinding the only way to sign in is refused after the confirmation.
    await page.getByRole('link', { name: 'Email', exact: true }).click();
    await page.getByRole('button', { name: 'Unbind email' }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog.getByRole('heading').textContent()).resolves.toBe('Are you sure you want to unbind?');
    await dialog.getByRole('button', { name: 'Unbind' }).click();
    await page.getByText('You cannot remove your last way to sign in.').waitFor();
    await expect(page.getByTestId('current-email').textContent()).resolves.toBe(EMAIL);

    await page.getByTestId('account-menu').click();
    await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
    await page.waitForURL(app.url('/login'));
    await page.goto(app.url('/'));
    await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).waitFor();
    await page.context().close();
  });

  test('password recovery: the code mail follows the language chosen in the app', async () => {
    const { page } = await app.open('/forget');
    await page.getByTestId('language-select').selectOption('de');
    await page.locator('html[lang="de"]').waitFor();
    await page.locator('input[name="email"]').fill(EMAIL);
    const subject = await fillEmailedCode(page, EMAIL);
    expect(subject).toMatch(/^Dein Margin-Code: \d{6}$/);
    await page.locator('input[name="password"]').fill(SECOND_PASSWORD);
    await page.locator('input[name="repeatPassword"]').fill(SECOND_PASSWORD);
    await page.locator('form[data-testid="forget-form"] button[type="submit"]').click();
    await page.waitForURL(app.url('/login'));
    await page.getByTestId('language-select').selectOption('en');
    await page.locator('html[lang="en"]').waitFor();

    await signIn(page, FIRST_PASSWORD);
    await page.getByText('Login Failed').waitFor();
    await signIn(page, SECOND_PASSWORD);
    await page.waitForURL(app.url('/'));
    await page.context().close();
  });

  test('QR login: a signed-in phone confirms the ticket shown on the desktop, which is then signed in', async () => {
    const { page: phone } = await app.open('/login', {
      viewport: { width: 360, height: 740 },
      isMobile: true,
    });
    await signIn(phone, SECOND_PASSWORD);
    await phone.waitForURL(app.url('/'));

    const { page: desktop } = await app.open('/login');
    const panel = desktop.getByTestId('qr-panel');
    await desktop.locator('[data-testid="qr-panel"][data-ticket-url]').waitFor();
    const ticketUrl = (await panel.getAttribute('data-ticket-url')) as string;
    expect(ticketUrl).toMatch(/\/qrlogin\/[\w-]+$/);
    await expect(panel.getByRole('img').getAttribute('src')).resolves.toMatch(/^data:image\/svg\+xml;utf8,/);

    await phone.goto(ticketUrl);
    const requester = phone.getByTestId('qr-requester');
    await requester.waitFor();
    await expect(requester.textContent()).resolves.toContain('127.0.0.1');
    await desktop.locator('[data-testid="qr-panel"][data-status="scanned"]').waitFor();

    await phone.getByRole('button', { name: 'Sign in there' }).click();
    await phone.getByText('Done. You can close this page.').waitFor();

    await desktop.waitForURL(app.url('/'));
    await desktop.getByTestId('account-menu').getByText('Marginalia', { exact: true }).waitFor();
    await phone.context().close();
    await desktop.context().close();
  });

  test('deleting the account asks first, signs out, and the account cannot sign in again', async () => {
    const { page } = await app.open('/login');
    await signIn(page, SECOND_PASSWORD);
    await page.waitForURL(app.url('/'));
    await page.goto(app.url('/personSetting/deleteaccount'));
    await page.getByText('Deleting your account is irreversible.', { exact: false }).first().waitFor();

    // Nothing to confirm until the password is there.
    await page.getByTestId('delete-account').click();
    await page.getByText('Password required').waitFor();
    await expect(page.getByRole('alertdialog').count()).resolves.toBe(0);

    await page.getByLabel('Enter your password to confirm').fill(SECOND_PASSWORD);
    await page.getByTestId('delete-account').click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    // Focus comes back once the dialog has closed: wait for it rather than read it once.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('delete-account');
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await page.waitForURL(app.url('/login'));
    await page.getByText('Your account has been deleted.').waitFor();

    await signIn(page, SECOND_PASSWORD);
    await page.getByText('Login Failed').waitFor();
    expect(pathOf(page)).toBe('/login');
    await page.context().close();
  });
});
