// Stripe end to end: a signed-in user orders PRO over HTTP, the real stripe SDK creates the
// Checkout Session on a local Stripe API, and the events Stripe would send (signed with the
// webhook secret) reach /pay/notify/stripe: what moves the order, what is refused, and what the
// buyer's membership shows after each.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clock } from '../../server/clock.ts';
import { ConfigError, loadConfig } from '../../server/config.ts';
import { ORDER_OPEN_MS } from '../../server/domain/membership/orders.ts';
import { stripeProvider } from '../../server/domain/membership/providers/stripe.ts';
import { LIMITS } from '../../server/domain/rate-limit.ts';
import { MemberLevel } from '../../src/enums.ts';
import { daysFromNow } from '../helpers/membership.ts';
import { type FakeStripe, type StripeEvent, startFakeStripe } from './fake-stripe.ts';
import {
  type BuyerClient,
  buyer,
  expectProviderOff,
  orderState,
  type PaymentApp,
  paymentsThrough,
  startPaymentApp,
  withPaymentApp,
} from './payment-test-kit.ts';

let fake: FakeStripe;
let app: PaymentApp;

beforeAll(async () => {
  fake = await startFakeStripe();
  app = await startPaymentApp({
    REGION: 'us',
    STRIPE_SECRET_KEY: fake.secretKey,
    STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
    STRIPE_API_URL: fake.url,
  });
  fake.setWebhookEndpoint(`${app.server.url}/pay/notify/stripe`);
});
afterAll(async () => {
  await app?.close();
  await fake?.close();
});

/** The Checkout Session Margin made for the order. */
function sessionOf(orderId: string): string {
  const found = fake.sessionFor(orderId);
  if (!found) throw new Error(`no session for ${orderId}`);
  return found.session.id;
}

/** The buyer's membership as the app tells them (auth.me). */
async function membership(client: BuyerClient) {
  const me = await client.auth.me.query();
  return { state: me?.membership, proExpiresAt: me?.proExpiresAt ?? null };
}

const payments = paymentsThrough('stripe', () => app, membership);

/** The order's and the user's rows, whole: what a refused event must leave as it was. */
async function fingerprint(orderId: string, userId: number): Promise<string> {
  const rows = await app.deps.orm.em
    .fork()
    .getConnection()
    .execute<{ row: string }[]>(
      `select row_to_json(o)::text as row from "order" o where o.id = ?
       union all select row_to_json(u)::text from "user" u where u.id = ?
       union all select count(*)::text from membership_event where user_id = ?`,
      [orderId, userId, userId],
    );
  return rows.map((r) => r.row).join('\n');
}

const ACCEPTED = { status: 200, body: '{"received":true}' };
const YEAR_S = 365 * 24 * 3600;
const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);
const REFUSED = { status: 400, body: '{"received":false}' };

describe('checkout', () => {
  test('the order gets a Checkout Session: its page, the order id and amount, the way back', async () => {
    const { user, client } = await buyer(app);
    const order = await payments.orderPro(client);
    expect(order).toMatchObject({
      state: 'created',
      source: 'stripe',
      amount: payments.product().amount,
      currency: 'USD',
      proDays: payments.product().days,
    });
    const made = fake.sessionFor(order.id);
    expect(made).toBeDefined();
    const { session } = made!;
    expect(order.checkout).toEqual({ kind: 'redirect', url: session.url });
    expect(session.url).toMatch(new RegExp(`^${fake.url}/c/pay/cs_test_`));
    const returnUrl = `${app.server.url}/personSetting/paylog?order=${order.id}`;
    expect(session).toMatchObject({
      mode: 'payment',
      status: 'open',
      amount_total: payments.product().amount,
      currency: 'usd',
      client_reference_id: order.id,
      metadata: { orderId: order.id },
      customer_email: user.email,
      success_url: returnUrl,
      cancel_url: returnUrl,
    });
    expect(made!.lineItems).toEqual([
      { name: order.description, currency: 'usd', unitAmount: payments.product().amount, quantity: 1 },
    ]);
    expect(made!.paymentIntentData).toEqual({ metadata: { orderId: order.id } });
    // The page closes with the order (two hours), so no payment can come after it closed.
    const expiresAt = (session.expires_at as number) * 1000;
    expect(Math.abs(expiresAt - (order.createdAt.getTime() + ORDER_OPEN_MS))).toBeLessThan(5_000);
    expect(made!.idempotencyKey).toBe(`checkout-${order.id}`);
    expect(await client.membership.order.query({ id: order.id })).toMatchObject({
      state: 'created',
      checkout: { kind: 'redirect', url: session.url },
    });
  });

  test('Stripe refusing the call (a wrong secret key): no session, the checkout fails', async () => {
    const provider = stripeProvider({
      ...app.deps.config.payments.stripe!,
      secretKey: 'sk_test_not_this_one',
    });
    const before = fake.sessions().length;
    await expect(
      provider.startCheckout({
        orderId: 'mo0000000000000000000000',
        amount: 499,
        currency: 'USD',
        description: 'Margin PRO · 31 days',
        notifyUrl: `${app.server.url}/pay/notify/stripe`,
        returnUrl: `${app.server.url}/`,
        closesAt: new Date(clock.now().getTime() + ORDER_OPEN_MS),
        email: null,
      }),
    ).rejects.toThrow(/Invalid API Key/);
    expect(fake.sessions().length).toBe(before);
  });

  test('the local Stripe refuses what Stripe refuses: no line items, no price, a bad amount', async () => {
    const call = (form: string) =>
      fetch(`${fake.url}/v1/checkout/sessions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${fake.secretKey}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: form,
      }).then(async (r) => ({ status: r.status, error: ((await r.json()) as { error?: object }).error }));
    const item = 'line_items[0][quantity]=1&line_items[0][price_data]';
    expect(await call('mode=payment&success_url=https://x.test/')).toMatchObject({
      status: 400,
      error: { type: 'invalid_request_error', param: 'line_items' },
    });
    expect(await call('mode=payment&line_items[0][quantity]=1')).toMatchObject({ status: 400 });
    expect(
      await call(
        `mode=payment&${item}[currency]=usd&${item}[unit_amount]=4.99&${item}[product_data][name]=P`,
      ),
    ).toMatchObject({ status: 400, error: { message: 'Invalid integer: 4.99' } });
    expect(
      await call(`${item}[currency]=usd&${item}[unit_amount]=499&${item}[product_data][name]=P`),
    ).toMatchObject({
      status: 400,
      error: { param: 'mode' },
    });
    const good = `mode=payment&${item}[currency]=usd&${item}[unit_amount]=499&${item}[product_data][name]=P`;
    expect(await call(`${good}&colour=red`)).toMatchObject({ status: 400, error: { param: 'colour' } });
    expect(await call(good)).toMatchObject({ status: 200, error: undefined });
  });

  test("another user's order is not found, and not in their list", () =>
    payments.expectOrderHiddenFromOthers());

  test('orders an hour are limited per account, also when they come all at once', async () => {
    const { client } = await buyer(app);
    const { max } = LIMITS.orders.perUserHour;
    const tries = await Promise.allSettled(Array.from({ length: max + 5 }, () => payments.orderPro(client)));
    expect(tries.filter((t) => t.status === 'fulfilled')).toHaveLength(max);
    const refusals = tries.flatMap((t) => (t.status === 'rejected' ? [t.reason] : []));
    expect(refusals).toHaveLength(5);
    for (const refusal of refusals) expect(refusal).toMatchObject({ data: { appCode: 'TOO_MANY_REQUESTS' } });
    expect((await client.membership.orders.query({ limit: 100 })).items).toHaveLength(max);
  });
});

describe('events', () => {
  test('paid: the order is paid and the buyer is PRO for exactly the product days', async () => {
    const { user, client } = await buyer(app);
    const order = await payments.orderPro(client);
    expect(await membership(client)).toEqual({ state: 'free', proExpiresAt: null });
    const sessionId = sessionOf(order.id);
    const expected = await daysFromNow(payments.product().days, async () => {
      expect(await fake.send(fake.pay(sessionId))).toEqual(ACCEPTED);
    });
    await payments.expectPaid(client, order.id, expected);
    // Margin's own rows: the user's level, and the payment intent the order was paid with.
    const [row] = await app.deps.orm.em
      .fork()
      .getConnection()
      .execute<{ member_level: number; provider_ref: string }[]>(
        `select u.member_level, o.provider_ref from "user" u join "order" o on o.user_id = u.id
         where u.id = ? and o.id = ?`,
        [user.id, order.id],
      );
    expect(row).toEqual({
      member_level: MemberLevel.pro,
      provider_ref: fake.sessionFor(order.id)?.paymentIntent?.id,
    });
  });

  test('the same event again, then five copies at once: granted once', async () => {
    const { client } = await buyer(app);
    const order = await payments.orderPro(client);
    const completed = fake.pay(sessionOf(order.id));
    const expected = await daysFromNow(payments.product().days, async () => {
      expect(await fake.send(completed)).toEqual(ACCEPTED);
    });
    const copies = await Promise.all(Array.from({ length: 5 }, () => fake.send(completed)));
    expect(copies).toEqual(Array(5).fill(ACCEPTED));
    await payments.expectPaid(client, order.id, expected);
  });

  test('forged, tampered, unsigned, replayed late or signed ahead of the clock: refused, nothing changes', async () => {
    const { user, client } = await buyer(app);
    const order = await payments.orderPro(client);
    const sessionId = sessionOf(order.id);
    const completed = fake.pay(sessionId);
    const before = await fingerprint(order.id, user.id);
    const attempts = [
      { secret: 'whsec_not_the_endpoint_secret' },
      {
        tamper: (body: string) =>
          body.replace(`"amount_total": ${payments.product().amount}`, '"amount_total": 1'),
      },
      { tamper: (body: string) => body.replace('"livemode": false', '"livemode": false ') },
      // Signed by Stripe, but ten minutes ago or a year ago: a replay.
      { timestamp: nowSeconds() - 600 },
      { timestamp: nowSeconds() - YEAR_S },
      // Signed for a time ahead of the clock, by more than the tolerance.
      { timestamp: nowSeconds() + 600 },
      { timestamp: nowSeconds() + YEAR_S },
    ];
    for (const options of attempts) expect(await fake.send(completed, options)).toEqual(REFUSED);
    const unsigned = await fetch(`${app.server.url}/pay/notify/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(completed),
    });
    expect(unsigned.status).toBe(400);
    // A refund forged for the order changes nothing either.
    expect(await fake.send(fake.refund(sessionId), { secret: 'whsec_forged' })).toEqual(REFUSED);
    expect(await fingerprint(order.id, user.id)).toBe(before);
    expect(await payments.eventsOf(order.id)).toEqual([]);
    // The genuine one still goes through, and so does a copy from a clock two minutes fast.
    expect(await fake.send(completed)).toEqual(ACCEPTED);
    expect(await orderState(client, order.id)).toBe('paid');
    expect(await fake.send(completed, { timestamp: nowSeconds() + 120 })).toEqual(ACCEPTED);
  });

  test('another amount or currency than the order: taken (a retry cannot change it), nothing granted, logged', async () => {
    const { client } = await buyer(app);
    const order = await payments.orderPro(client);
    const sessionId = sessionOf(order.id);
    fake.pay(sessionId);
    const amount = payments.product().amount;
    const cheaper = fake.event('checkout.session.completed', sessionId, { amount_total: 1 });
    const inEuros = fake.event('checkout.session.completed', sessionId, { currency: 'eur' });
    expect(await fake.send(cheaper)).toEqual(ACCEPTED);
    expect(await fake.send(inEuros)).toEqual(ACCEPTED);
    await payments.expectNothingGranted(client, order.id);
    expect(await payments.eventsOf(order.id)).toEqual([
      { action: 'amountMismatch', days: null, detail: `paid: 1 usd, order ${amount} USD` },
      { action: 'amountMismatch', days: null, detail: `paid: ${amount} eur, order ${amount} USD` },
    ]);
  });

  test('a delayed payment: completed unpaid changes nothing, async_payment_succeeded pays', async () => {
    const { client } = await buyer(app);
    const order = await payments.orderPro(client);
    const sessionId = sessionOf(order.id);
    expect(await fake.send(fake.pay(sessionId, { delayed: true }))).toEqual(ACCEPTED);
    expect(await orderState(client, order.id)).toBe('created');
    expect(await payments.eventsOf(order.id)).toEqual([]);
    expect(await fake.send(fake.settle(sessionId))).toEqual(ACCEPTED);
    expect(await orderState(client, order.id)).toBe('paid');
    expect((await membership(client)).state).toBe('pro');
  });

  test('expired: the unpaid order is closed, and a payment after it grants nothing but is logged for the operator', async () => {
    const { client } = await buyer(app);
    const order = await payments.orderPro(client);
    const sessionId = sessionOf(order.id);
    expect(await fake.send(fake.expire(sessionId))).toEqual(ACCEPTED);
    expect(await client.membership.order.query({ id: order.id })).toMatchObject({
      state: 'closed',
      checkout: null,
    });
    const late = fake.event('checkout.session.completed', sessionId, { payment_status: 'paid' });
    expect(await fake.send(late)).toEqual(ACCEPTED);
    expect(await orderState(client, order.id)).toBe('closed');
    expect(await membership(client)).toEqual({ state: 'free', proExpiresAt: null });
    expect((await payments.eventsOf(order.id)).map((e) => e.action)).toEqual([
      'orderClosed',
      'paidAfterClose',
    ]);
  });

  test('out of order: expired arriving after paid leaves it paid', async () => {
    const { client } = await buyer(app);
    const order = await payments.orderPro(client);
    const sessionId = sessionOf(order.id);
    const expired = fake.event('checkout.session.expired', sessionId, { status: 'expired' });
    await fake.send(fake.pay(sessionId));
    expect(await fake.send(expired)).toEqual(ACCEPTED);
    expect(await orderState(client, order.id)).toBe('paid');
    expect((await membership(client)).state).toBe('pro');
    expect((await payments.eventsOf(order.id)).map((e) => e.action)).toEqual(['orderPaid']);
  });

  test('out of order: the refund before the payment: refunded, and the payment grants nothing', async () => {
    const { client } = await buyer(app);
    const order = await payments.orderPro(client);
    const sessionId = sessionOf(order.id);
    const completed = fake.pay(sessionId);
    const refunded = fake.refund(sessionId);
    expect(await fake.send(refunded)).toEqual(ACCEPTED);
    expect(await orderState(client, order.id)).toBe('refunded');
    expect(await fake.send(completed)).toEqual(ACCEPTED);
    await payments.expectRefundedUnpaid(client, order.id);
  });

  test('a partial refund changes nothing; the full refund takes the days back', async () => {
    const { client } = await buyer(app);
    const order = await payments.orderPro(client);
    const sessionId = sessionOf(order.id);
    let fullRefund: StripeEvent | undefined;
    await payments.expectPartialThenFullRefund(client, order.id, {
      pay: () => fake.send(fake.pay(sessionId)),
      refundPart: async () => expect(await fake.send(fake.refund(sessionId, 100))).toEqual(ACCEPTED),
      refundAll: async () => {
        fullRefund ??= fake.refund(sessionId);
        expect(await fake.send(fullRefund)).toEqual(ACCEPTED);
      },
    });
    const { items } = await client.membership.orders.query({});
    expect(items).toMatchObject([{ id: order.id, state: 'refunded', proDays: payments.product().days }]);
  });

  test('a charge whose metadata was edited since: the order is found through its payment intent', async () => {
    const { client } = await buyer(app);
    const order = await payments.orderPro(client);
    const sessionId = sessionOf(order.id);
    await fake.send(fake.pay(sessionId));
    fake.refund(sessionId);
    const intent = fake.sessionFor(order.id)?.paymentIntent?.id;
    const refunded = fake.event('charge.refunded', sessionId, { metadata: {} });
    expect(await fake.send(refunded)).toEqual(ACCEPTED);
    expect(await orderState(client, order.id)).toBe('refunded');
    expect(fake.calls()).toContainEqual({
      method: 'GET',
      path: `/v1/payment_intents/${intent}`,
      status: 200,
    });
  });

  test("events Margin does not act on, or about someone else's payments, are taken and change nothing", async () => {
    const { user, client } = await buyer(app);
    const order = await payments.orderPro(client);
    const sessionId = sessionOf(order.id);
    fake.pay(sessionId);
    const before = await fingerprint(order.id, user.id);
    const others = [
      fake.event('payment_intent.succeeded', sessionId),
      fake.event('charge.succeeded', sessionId),
      // A session another integration on the same account made.
      fake.event('checkout.session.completed', sessionId, { client_reference_id: null, metadata: {} }),
    ];
    for (const event of others) expect(await fake.send(event), event.type).toEqual(ACCEPTED);
    expect(await fingerprint(order.id, user.id)).toBe(before);
  });
});

describe('without keys', () => {
  test('Stripe is off: not offered, no order, its notification URL not there', async () => {
    await withPaymentApp({ REGION: 'us' }, async (bare) => {
      const { client } = await buyer(bare);
      expect((await client.membership.overview.query()).providers).toEqual([]);
      await expectProviderOff(bare, client, 'stripe', { contentType: 'application/json', body: '{}' });
    });
  });

  test('one of the two keys without the other stops the start', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_only' })).toThrow(ConfigError);
    expect(() => loadConfig({ STRIPE_WEBHOOK_SECRET: 'whsec_only' })).toThrow(/STRIPE_SECRET_KEY/);
  });
});
