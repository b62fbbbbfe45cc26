// The membership screens in Chromium, with membership on in the us region (no payment provider
// set up), in the euro region (Stripe, through its SDK against a local Stripe API), in the chn
// region (Alipay, through the real SDK against a local Alipay gateway), and off: the plans page, the order list, the PRO badge and tip, and the Upgrade toast.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Request } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { clock } from '../../server/clock.ts';
import { Order } from '../../server/db/entities/index.ts';
import { grantProDays, revokeProDays } from '../../server/domain/membership/grants.ts';
import {
  markOrderClosed,
  markOrderPaid,
  markOrderRefunded,
  newOrderId,
} from '../../server/domain/membership/orders.ts';
import { DAY_MS, MINUTE_MS } from '../../src/constants.ts';
import type { Checkout } from '../../src/schemas/membership.ts';
import { type E2E, e2eFixture, type SignedInUser } from '../helpers/e2e.ts';
import { startFakeAlipay } from '../payments/fake-alipay.ts';
import { startFakeStripe } from '../payments/fake-stripe.ts';

const alipay = await startFakeAlipay();
const stripe = await startFakeStripe();
const keyDir = mkdtempSync(join(tmpdir(), 'margin-e2e-alipay-'));
const alipayKeys = alipay.writeKeyFiles(keyDir);
afterAll(async () => {
  await alipay.close();
  await stripe.close();
  rmSync(keyDir, { recursive: true, force: true });
});

const english = (page: Page) =>
  page.context().addInitScript(() => localStorage.setItem('margin.language', 'en'));

/**
 * Opens `url` and waits until the server's membership switch (system.info) has been read and
 * drawn. A streamed batch is cut off by the client once every answer in it is in, so the request
 * may end as finished or as aborted.
 */
async function openSettled(page: Page, url: string) {
  const isInfo = (request: Request) => request.url().includes('system.info');
  const answered = Promise.race([
    page.waitForEvent('requestfinished', isInfo),
    page.waitForEvent('requestfailed', isInfo),
  ]);
  await page.goto(url);
  await answered;
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

const oneLine = (text: string | null) => text?.replace(/\s+/g, ' ') ?? '';

/** The texts of every element with `testId`, once the first is there. */
async function texts(page: Page, testId: string): Promise<string[]> {
  const all = page.getByTestId(testId);
  await all.first().waitFor();
  return all.evaluateAll((nodes) => nodes.map((n) => n.textContent?.trim() ?? ''));
}

/** PRO days for a user, as an operator grant gives them. */
async function grant(app: E2E, user: SignedInUser, days: number) {
  await grantProDays(app.deps.orm.em.fork(), {
    userId: user.user.id,
    days,
    tier: 'pro',
    actor: 'test',
    action: 'grant',
  });
}

/** An order row as createOrder leaves it (state created), made `minutesAgo` before now. */
async function order(
  app: E2E,
  user: SignedInUser,
  minutesAgo: number,
  extra: { checkout?: Checkout; remark?: string; proDays?: number } = {},
): Promise<string> {
  const em = app.deps.orm.em.fork();
  const id = newOrderId();
  em.create(Order, {
    id,
    user: user.user.id,
    source: 'stripe',
    productId: 'pro-month',
    tier: 'pro',
    proDays: extra.proDays ?? 31,
    amount: 499,
    currency: 'USD',
    description: `Margin PRO · ${extra.proDays ?? 31} days`,
    remark: extra.remark ?? null,
    checkout: extra.checkout ?? null,
    createdAt: new Date(clock.now().getTime() - minutesAgo * MINUTE_MS),
  });
  await em.flush();
  return id;
}

describe('membership on (us, no payment provider set up)', () => {
  const app = e2eFixture({ env: { MEMBERSHIP: 'on', REGION: 'us' }, browser: { timeout: 10_000 } });

  test('a free user sees the plan, the prices in dollars and the comparison, in light and dark; buying is not set up', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page, errors } = await app.signIn(undefined, { colorScheme });
      await english(page);
      await page.goto(app.url('/personSetting/membership'));
      await expect(page.locator('html').getAttribute('data-theme')).resolves.toBe(colorScheme);
      await expect(page.getByTestId('current-plan-name').textContent()).resolves.toBe('Free');
      await expect(page.getByTestId('current-plan').textContent()).resolves.toContain('Upgrade to PRO for:');
      await expect(page.getByTestId('countdown').count()).resolves.toBe(0);

      // The region's products, priced in its currency in the reader's language.
      await expect(texts(page, 'product-price')).resolves.toEqual(['$4.99', '$39.99', '$89.99']);
      const year = page.locator('[data-product="pro-year"]');
      await expect(year.textContent()).resolves.toContain('366 days');
      await expect(year.textContent()).resolves.toContain('Best value');
      await expect(page.locator('[data-product="super-pro-year"] h3').textContent()).resolves.toBe(
        'Super PRO',
      );
      // No provider has keys here: no buy buttons, and the page says why.
      await expect(page.getByTestId('payment-off').textContent()).resolves.toBe(
        'Payment is not set up on this server yet, so plans cannot be bought here.',
      );
      await expect(page.locator('[data-provider]').count()).resolves.toBe(0);

      // What each level gets: the free column is the user's; the Open API is PRO's.
      const table = page.getByTestId('plan-comparison');
      await expect(table.locator('thead th.compare-mine').textContent()).resolves.toBe('FreeYour plan');
      const openApi = table.locator('tr[data-feature="openApi"]');
      await expect(openApi.locator('th').textContent()).resolves.toBe('Open API');
      await expect(
        openApi.locator('[data-included]').evaluateAll((n) => n.map((e) => e.getAttribute('data-included'))),
      ).resolves.toEqual(['no', 'yes', 'yes']);
      await expect(table.locator('tr[data-quota="apiTokens"] td').allTextContents()).resolves.toEqual([
        '–Not included',
        '25',
        '100',
      ]);
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });

  test('a PRO user sees the expiry, the days left and a countdown that ticks each minute; the account page says the days left', async () => {
    const user = await app.user();
    await grant(app, user, 30);
    const { page } = await app.signIn(undefined, { user });
    await english(page);
    await page.goto(app.url('/personSetting/membership'));
    await expect(page.getByTestId('current-plan-name').textContent()).resolves.toBe('PRO');
    await expect(page.getByTestId('days-left').textContent()).resolves.toBe('30 days left');
    const expiry = new Date(clock.now().getTime() + 30 * DAY_MS);
    const expected = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' }).format(expiry);
    // The date is set in its own direction inside the sentence (Unicode isolates around it).
    await expect(
      page
        .getByTestId('plan-expiry')
        .textContent()
        .then((text) => text?.replace(/[\u2068\u2069]/g, '')),
    ).resolves.toBe(`Valid until ${expected}`);
    await expect(page.getByRole('heading', { name: 'Add more time' }).count()).resolves.toBe(1);

    const timer = page.getByRole('timer');
    await expect(timer.getAttribute('aria-label')).resolves.toBe('29 days, 23 hours, 59 minutes');
    await page.clock.runFor(MINUTE_MS);
    await expect.poll(() => timer.getAttribute('aria-label')).toBe('29 days, 23 hours, 58 minutes');

    await page.goto(app.url('/personSetting/user'));
    await expect(page.getByTestId('plan').textContent()).resolves.toBe('PRO');
    await expect(page.getByTestId('plan-days-left').textContent()).resolves.toBe('30 days left');
    await page.context().close();
  });

  test('a lapsed member reads "Membership expired" on the plans and account pages', async () => {
    const user = await app.user();
    await grant(app, user, 10);
    await revokeProDays(app.deps.orm.em.fork(), {
      userId: user.user.id,
      days: 10,
      actor: 'test',
      action: 'revoke',
    });
    const { page } = await app.signIn(undefined, { user });
    await english(page);
    await page.goto(app.url('/personSetting/membership'));
    await expect(page.getByTestId('days-left').textContent()).resolves.toBe('Membership expired');
    await expect(page.getByTestId('countdown').count()).resolves.toBe(0);
    await page.goto(app.url('/personSetting/user'));
    await expect(page.getByTestId('plan').textContent()).resolves.toBe('Membership expired');
    await expect(page.getByRole('link', { name: 'Renew' }).getAttribute('href')).resolves.toBe(
      '/personSetting/membership',
    );
    await page.context().close();
  });

  test('the order list: each state, the fields, paging past the first page, an empty list', async () => {
    const user = await app.user();
    const paid = await order(app, user, 1, { proDays: 366 });
    const refunded = await order(app, user, 2, { remark: 'Refunded at the buyer’s request' });
    const closed = await order(app, user, 3);
    const open = await order(app, user, 4, {
      checkout: { kind: 'redirect', url: 'https://checkout.example.test/pay/1' },
    });
    for (let i = 0; i < 19; i++) await order(app, user, 10 + i);
    const em = () => app.deps.orm.em.fork();
    await markOrderPaid(em(), paid, 'test');
    await markOrderPaid(em(), refunded, 'test');
    await markOrderRefunded(em(), refunded, 'test');
    await markOrderClosed(em(), closed, 'test');

    const { page, errors } = await app.signIn(undefined, { user, clipboard: true });
    await english(page);
    await page.goto(app.url('/personSetting/paylog'));
    const rows = page.getByTestId('order');
    await rows.first().waitFor();
    await expect(rows.count()).resolves.toBe(20);
    await expect(texts(page, 'order-id').then((ids) => ids.slice(0, 4))).resolves.toEqual([
      paid,
      refunded,
      closed,
      open,
    ]);
    await expect(texts(page, 'order-state').then((s) => s.slice(0, 4))).resolves.toEqual([
      'Paid',
      'Refunded',
      'Closed',
      'Awaiting payment',
    ]);
    const first = rows.first();
    await expect(first.getByTestId('order-price').textContent()).resolves.toBe('$4.99');
    await expect(first.getByTestId('order-days').textContent()).resolves.toBe('366');
    await expect(first.getByTestId('order-description').textContent()).resolves.toBe('PRO · 366 days');
    const created = new Intl.DateTimeFormat('en', {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'UTC',
    });
    // The time the order was stamped with, not the clock now: a minute may have turned since.
    const stamped = (await app.deps.orm.em.fork().findOneOrFail(Order, paid)).createdAt;
    await expect(first.getByTestId('order-created').textContent().then(oneLine)).resolves.toBe(
      oneLine(created.format(stamped)),
    );
    await expect(rows.nth(1).getByTestId('order-remark').textContent()).resolves.toBe(
      'Refunded at the buyer’s request',
    );
    // Only an unpaid order with somewhere to pay offers to pay it.
    await expect(page.getByRole('button', { name: 'Pay now' }).count()).resolves.toBe(1);
    await expect(rows.nth(3).getByRole('button', { name: 'Pay now' }).count()).resolves.toBe(1);

    await first.getByTestId('copy-order-id').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(paid);

    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => rows.count()).toBe(23);
    await expect(page.getByRole('button', { name: 'Load more' }).count()).resolves.toBe(0);
    expect(errors).toEqual([]);
    await page.context().close();

    const other = await app.signIn(undefined);
    await english(other.page);
    await other.page.goto(app.url('/personSetting/paylog'));
    await expect(other.page.getByTestId('orders-empty').locator('h2').textContent()).resolves.toBe(
      'No orders yet',
    );
    await other.page.context().close();
  });

  test('?order= (back from a payment page) marks the order and follows it until it is paid', async () => {
    const user = await app.user();
    await order(app, user, 5);
    const id = await order(app, user, 1, {
      checkout: { kind: 'redirect', url: 'https://checkout.example.test/pay/2' },
    });
    const { page } = await app.signIn(undefined, { user });
    await english(page);
    await page.goto(app.url(`/personSetting/paylog?order=${id}`));
    const marked = page.locator('[data-testid="order"][data-highlighted]');
    await expect(marked.getByTestId('order-id').textContent()).resolves.toBe(id);
    await expect(page.locator('[data-highlighted]').count()).resolves.toBe(1);
    await expect(page.getByTestId('returned-order').textContent()).resolves.toBe(
      'Waiting for the payment of this order to be confirmed…',
    );

    // The success toast lasts 600 ms: watched for from before the payment.
    const toasted = page.getByText('Payment received. Thank you!').waitFor();
    await markOrderPaid(app.deps.orm.em.fork(), id, 'test');
    await toasted;
    await expect
      .poll(() => page.getByTestId('returned-order').textContent())
      .toBe('This order is paid: 31 PRO days were added. Thank you!');
    await expect.poll(() => marked.getByTestId('order-state').textContent()).toBe('Paid');
    await page.context().close();
  });

  test('a PRO-only screen shows the PRO badge always and its tip twice a day; a refusal offers Upgrade', async () => {
    const { page } = await app.signIn();
    await english(page);
    for (const visit of [1, 2, 3]) {
      await page.goto(app.url('/personSetting/openapi'));
      await page.getByTestId('pro-badge').waitFor();
      await page.getByTestId('api-tokens-empty').waitFor();
      // proTipsPerDay is 2 by default: the third visit of the day shows the badge alone.
      await expect(page.getByTestId('pro-tip').count()).resolves.toBe(visit <= 2 ? 1 : 0);
    }
    await expect(page.getByTestId('pro-badge').getAttribute('href')).resolves.toBe(
      '/personSetting/membership',
    );

    for (const app_ of ['flomo', 'workflowy']) {
      await page.goto(app.url(`/personSetting/${app_}`));
      await page.getByTestId('pro-badge').waitFor();
    }
    await page.goto(app.url('/personSetting/siyuan'));
    await page.getByTestId('integration-entry').waitFor();
    await expect(page.getByTestId('pro-badge').count()).resolves.toBe(0);

    // Making an API token is PRO's: the refusal says so and offers the plans.
    await page.goto(app.url('/personSetting/openapi'));
    await page.getByLabel('Name', { exact: true }).fill('Shortcuts');
    await page.getByRole('button', { name: 'Create token' }).click();
    const toast = page.locator('[data-sonner-toast]', { hasText: 'Only for PRO user' });
    await toast.waitFor();
    await toast.getByRole('button', { name: 'Upgrade' }).click();
    await page.waitForURL(app.url('/personSetting/membership'));
    await expect(page.getByTestId('current-plan-name').textContent()).resolves.toBe('Free');
    await page.context().close();
  });

  test('a PRO user sees no badge on PRO-only screens', async () => {
    const user = await app.user();
    await grant(app, user, 5);
    const { page } = await app.signIn(undefined, { user });
    await openSettled(page, app.url('/personSetting/openapi'));
    await page.getByTestId('api-tokens-empty').waitFor();
    await expect(page.getByTestId('pro-note').count()).resolves.toBe(0);
    await page.context().close();
  });
});

describe('membership on (euro, Stripe)', () => {
  const app = e2eFixture({
    env: {
      MEMBERSHIP: 'on',
      REGION: 'euro',
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_URL: stripe.url,
    },
    browser: { timeout: 10_000 },
  });

  test('prices in euros; paying by card goes to the checkout page, and back from it the order is followed until paid', async () => {
    stripe.setWebhookEndpoint(app.url('/pay/notify/stripe'));
    const { page, user, errors } = await app.signIn();
    await english(page);
    await page.goto(app.url('/personSetting/membership'));
    await expect(texts(page, 'product-price')).resolves.toEqual(['€4.99', '€39.99', '€89.99']);
    await expect(page.getByTestId('pay-note').textContent()).resolves.toBe(
      'You pay on Stripe’s secure checkout page, then come back here.',
    );

    await page.locator('[data-product="pro-year"] [data-provider="stripe"]').click();
    await page.waitForURL(`${stripe.url}/c/pay/**`);
    const placed = (await user.caller.membership.orders({ limit: 1 })).items[0];
    expect(placed).toMatchObject({ state: 'created', amount: 3999, currency: 'EUR', proDays: 366 });
    const session = stripe.sessionFor(placed!.id)!.session;
    expect(page.url()).toBe(session.url);
    expect(errors).toEqual([]);

    // Paid on Stripe's page; Stripe sends the buyer back while its event may still be on its way.
    const returnUrl = String(session.success_url);
    expect(returnUrl).toBe(app.url(`/personSetting/paylog?order=${placed!.id}`));
    await page.goto(returnUrl);
    await expect(page.getByTestId('returned-order').textContent()).resolves.toBe(
      'Waiting for the payment of this order to be confirmed…',
    );
    await expect(stripe.send(stripe.pay(session.id))).resolves.toMatchObject({ status: 200 });
    await expect
      .poll(() => page.getByTestId('returned-order').textContent())
      .toBe('This order is paid: 366 PRO days were added. Thank you!');
    await page.goto(app.url('/personSetting/user'));
    await expect(page.getByTestId('plan-days-left').textContent()).resolves.toBe('366 days left');
    await page.context().close();
  });
});

describe('membership on (chn, Alipay)', () => {
  const app = e2eFixture({
    env: {
      MEMBERSHIP: 'on',
      REGION: 'chn',
      ALIPAY_APP_ID: alipay.appId,
      ALIPAY_PRIVATE_KEY_FILE: alipayKeys.privateKeyFile,
      ALIPAY_PUBLIC_KEY_FILE: alipayKeys.publicKeyFile,
      ALIPAY_GATEWAY_URL: alipay.gatewayUrl,
    },
    browser: { timeout: 10_000 },
  });

  /** The order the dialog is paying: the user's newest. */
  const newestOrder = async (user: SignedInUser) =>
    (await user.caller.membership.orders({ limit: 1 })).items[0];

  test('prices in yuan; paying with Alipay shows the code and amount and waits; paid, the dialog closes and the plan is PRO', async () => {
    const { page, user, errors } = await app.signIn();
    // The region's own language shows the yuan as at home.
    await page.goto(app.url('/personSetting/membership'));
    await expect(texts(page, 'product-price')).resolves.toEqual(['¥18.00', '¥168.00', '¥398.00']);
    await english(page);
    await page.goto(app.url('/personSetting/membership'));
    await expect(texts(page, 'product-price')).resolves.toEqual(['CN¥18.00', 'CN¥168.00', 'CN¥398.00']);
    await expect(page.getByTestId('payment-off').count()).resolves.toBe(0);

    await page.locator('[data-product="pro-month"] [data-provider="alipay"]').click();
    const dialog = page.getByTestId('pay-dialog');
    await expect(dialog.getByRole('heading').textContent()).resolves.toBe('Scan with Alipay to pay');
    await expect(dialog.getByTestId('pay-amount').textContent()).resolves.toBe('CN¥18.00');
    await dialog.getByTestId('pay-qr').waitFor();
    await expect(dialog.getByTestId('pay-status').textContent()).resolves.toBe('Waiting for your payment…');
    const placed = await newestOrder(user);
    expect(placed).toMatchObject({ state: 'created', amount: 1800, currency: 'CNY', source: 'alipay' });
    expect(alipay.trade(placed!.id)?.totalAmount).toBe('18.00');

    const toasted = page.getByText('Payment received. Thank you!').waitFor();
    await expect(alipay.notify(placed!.id, 'paid')).resolves.toMatchObject({ status: 200 });
    await toasted;
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('current-plan-name').textContent()).toBe('PRO');
    await expect(page.getByTestId('days-left').textContent()).resolves.toBe('31 days left');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test('closing the code dialog stops asking about the order; paid later from the list, a closed order says so', async () => {
    const { page, user } = await app.signIn();
    await english(page);
    await page.goto(app.url('/personSetting/membership'));
    await page.locator('[data-product="pro-month"] [data-provider="alipay"]').click();
    const dialog = page.getByTestId('pay-dialog');
    await dialog.getByTestId('pay-qr').waitFor();

    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('membership.order?')) asked.push(request.url());
    });
    await page.clock.runFor(5_000);
    await expect.poll(() => asked.length).toBeGreaterThan(0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    asked.length = 0;
    await page.clock.runFor(30_000);
    await page.evaluate(() => 0); // the page's requests so far have been reported
    expect(asked).toEqual([]);

    // Still unpaid: the order list offers its code again.
    const placed = await newestOrder(user);
    await page.goto(app.url('/personSetting/paylog'));
    const row = page.locator(`[data-order="${placed!.id}"]`);
    await expect(row.getByTestId('order-state').textContent()).resolves.toBe('Awaiting payment');
    await row.getByRole('button', { name: 'Pay now' }).click();
    await dialog.getByTestId('pay-qr').waitFor();
    await expect(dialog.getByTestId('pay-amount').textContent()).resolves.toBe('CN¥18.00');
    await expect(alipay.notify(placed!.id, 'closed')).resolves.toMatchObject({ status: 200 });
    await expect
      .poll(() => dialog.getByTestId('pay-status').textContent())
      .toBe('This order was closed before it was paid. Start again to pay.');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => row.getByTestId('order-state').textContent()).toBe('Closed');
    await expect(row.getByRole('button', { name: 'Pay now' }).count()).resolves.toBe(0);
    await page.context().close();
  });
});

describe('membership off (the self-hosted default)', () => {
  const app = e2eFixture({ browser: { timeout: 10_000 } });

  test('the plans page says every feature is open; no prices, no PRO badge, no plan anywhere', async () => {
    const { page, errors } = await app.signIn();
    await english(page);
    await page.goto(app.url('/personSetting/membership'));
    await expect(page.getByTestId('membership-off').textContent()).resolves.toBe(
      'Every feature is open to everyone on this server.',
    );
    await expect(page.getByTestId('product').count()).resolves.toBe(0);
    await expect(page.getByTestId('plan-comparison').count()).resolves.toBe(0);
    // Reachable by its address, but not listed among the settings.
    const nav = page.locator('.settings-nav');
    await expect(nav.getByRole('link', { name: 'Membership', exact: true }).count()).resolves.toBe(0);
    await expect(nav.getByRole('link', { name: 'Orders', exact: true }).count()).resolves.toBe(0);
    await expect(nav.getByRole('link', { name: 'Account', exact: true }).count()).resolves.toBe(1);

    for (const path of ['/personSetting/openapi', '/personSetting/flomo', '/personSetting/workflowy']) {
      await openSettled(page, app.url(path));
      await page.locator('.settings-stack').waitFor();
      await expect(page.getByTestId('pro-note').count()).resolves.toBe(0);
    }
    await openSettled(page, app.url('/personSetting/user'));
    await page.getByTestId('nickname-form').waitFor();
    await expect(page.getByTestId('plan').count()).resolves.toBe(0);
    await expect(page.getByText('Plan', { exact: true }).count()).resolves.toBe(0);

    await page.goto(app.url('/personSetting/paylog'));
    await expect(page.getByTestId('orders-empty').textContent()).resolves.toBe('You have no orders.');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
