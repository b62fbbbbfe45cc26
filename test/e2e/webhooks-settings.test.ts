import type { Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { e2eFixture } from '../helpers/e2e.ts';
import { signedWith, startWebhookReceiver } from '../helpers/webhook-receiver.ts';

// The webhooks section of the "API and daily note" page, with the workers delivering to a
// receiver on loopback (allowed by FETCH_ALLOW_TARGETS, so plain http is accepted for it).
const receiver = await startWebhookReceiver();
afterAll(() => receiver.close());

const app = e2eFixture({
  workers: true,
  browser: { clipboard: true },
  env: { FETCH_ALLOW_TARGETS: receiver.target },
});

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

describe('webhooks on the API and daily note page in Chromium', () => {
  test('an endpoint: refused without https, added with its events, its secret shown once; a test event is delivered and logged; turned off; deleted after asking', async () => {
    const { page, user, errors } = await app.signIn('/personSetting/openapi');
    const section = page.getByTestId('webhook-settings');
    await section.getByTestId('webhooks-empty').waitFor();

    await section.getByLabel('Endpoint URL').fill('http://hooks.example.com/margin');
    await section.getByRole('button', { name: 'Add endpoint' }).click();
    await section.getByText('The endpoint must use https.').waitFor();
    await expect(user.caller.webhooks.list()).resolves.toEqual([]);

    const url = receiver.newUrl();
    await section.getByLabel('Endpoint URL').fill(url);
    for (const label of ['A note is saved', 'Something is added to a daily note'])
      await section.getByRole('checkbox', { name: label }).uncheck();
    await section.getByRole('button', { name: 'Add endpoint' }).click();

    const secretBox = section.getByTestId('webhook-secret');
    const secret = (await secretBox.getByTestId('webhook-secret-value').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_[\w-]{32}$/);
    await section.getByTestId('copy-secret').click();
    await expect.poll(() => clipboard(page)).toBe(secret);
    await secretBox.getByRole('button', { name: 'Done' }).click();
    await secretBox.waitFor({ state: 'detached' });

    const row = section.getByTestId('webhook');
    await expect(row.getByTestId('webhook-url').textContent()).resolves.toBe(url);
    await expect(row.getByRole('list', { name: 'Events' }).textContent()).resolves.toBe(
      'note.updatedhighlight.createdhighlight.updatedhighlight.deleted',
    );
    await row.getByText('Active').waitFor();
    await expect(page.content()).resolves.not.toContain(secret);

    await row.getByRole('button', { name: 'Send test event' }).click();
    const [ping] = await receiver.waitFor(url, 1);
    expect(ping?.body.type).toBe('ping');
    expect(ping && signedWith(ping, secret)).toBe(true);
    await row.getByRole('button', { name: 'Delivery log' }).click();
    const delivery = row.getByTestId('webhook-delivery');
    await delivery.getByText('Delivered').waitFor();
    await expect(delivery.textContent()).resolves.toContain('HTTP 204');

    await row.getByRole('switch', { name: 'Send events' }).uncheck();
    await row.getByText('Off', { exact: true }).waitFor();
    expect((await user.caller.webhooks.list())[0]?.enabled).toBe(false);
    await expect(row.getByRole('button', { name: 'Send test event' }).isDisabled()).resolves.toBe(true);

    await row.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm.getByRole('heading').textContent()).resolves.toBe('Delete this endpoint?');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await section.getByTestId('webhooks-empty').waitFor();
    await expect(user.caller.webhooks.list()).resolves.toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test('an endpoint Margin turned off shows why, and turns on again', async () => {
    const user = await app.user();
    const { endpoint } = await user.caller.webhooks.create({
      url: 'https://down.example.net/hook',
      events: ['note.updated'],
    });
    await app.deps.orm.em
      .fork()
      .getConnection()
      .execute(
        `update webhook_endpoint set enabled = false, disabled_reason = 'failing', disabled_at = ? where id = ?`,
        [new Date('2026-03-13T08:00:00Z'), endpoint.id],
      );
    const { page, errors } = await app.signIn('/personSetting/openapi', {
      user,
      viewport: { width: 360, height: 780 },
    });
    const notice = page.getByTestId('webhook-disabled-notice');
    await expect(notice.textContent()).resolves.toContain('because its deliveries failed for 3 days');
    await page.getByText('Turned off by Margin').waitFor();
    // Nothing is wider than the phone's screen.
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(360);

    await notice.getByRole('button', { name: 'Turn on again' }).click();
    await notice.waitFor({ state: 'detached' });
    await page.getByTestId('webhook').getByText('Active').waitFor();
    expect((await user.caller.webhooks.list())[0]).toMatchObject({ enabled: true, disabledReason: null });
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
