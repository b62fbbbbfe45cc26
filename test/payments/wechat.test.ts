// WeChat Pay v3 Native end to end: a signed-in user orders over HTTP, Margin signs its call to a
// local WeChat Pay that checks the signature and answers with a QR code, and that server's signed,
// encrypted notifications (genuine, repeated, forged, late, out of order) move the order once.
import superjson from 'superjson';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clock } from '../../server/clock.ts';
import { LOGIN_COOKIE_KEY } from '../../src/constants.ts';
import type { MembershipOverview, OrderView } from '../../src/schemas/membership.ts';
import type { RunningServer } from '../helpers/http.ts';
import { daysFromNow, expectExpiryWithin } from '../helpers/membership.ts';
import { signedInUser } from '../helpers/users.ts';
import { type FakeWechatPay, startFakeWechatPay, type WechatNotification } from './fake-wechatpay.ts';
import { membershipEvents, type PaymentApp, startPaymentApp, withPaymentApp } from './payment-test-kit.ts';

/** The chn region's default product: PRO for 31 days at ¥18.00. */
const PRO_MONTH = { productId: 'pro-month', days: 31, amount: 1_800 } as const;

let fake: FakeWechatPay;
let app: PaymentApp;

beforeAll(async () => {
  fake = await startFakeWechatPay();
  app = await startPaymentApp({ REGION: 'chn', ...fake.env });
});
afterAll(async () => {
  await app?.close();
  await fake?.close();
});

type Buyer = Awaited<ReturnType<typeof signedInUser>>;
type Answer<T> = { status: number; data?: T; error?: { message: string; data: { appCode: string } } };

/** A tRPC procedure called over HTTP with the user's session cookie, as the app calls it. */
async function call<T>(
  server: RunningServer,
  user: Buyer,
  path: string,
  input: unknown,
  kind: 'query' | 'mutation',
): Promise<Answer<T>> {
  const wire = JSON.stringify(superjson.serialize(input));
  const res = await fetch(
    kind === 'query'
      ? `${server.url}/trpc/${path}?input=${encodeURIComponent(wire)}`
      : `${server.url}/trpc/${path}`,
    {
      method: kind === 'query' ? 'GET' : 'POST',
      headers: { Cookie: `${LOGIN_COOKIE_KEY}=${user.token}`, 'Content-Type': 'application/json' },
      ...(kind === 'mutation' ? { body: wire } : {}),
    },
  );
  const body = await res.json();
  return body.error
    ? { status: res.status, error: body.error.json }
    : { status: res.status, data: superjson.deserialize<T>(body.result.data) };
}

/** Orders PRO for a month through WeChat Pay: Margin's answer, an order or a refusal. */
const createOrder = (buyer: Buyer, on = app) =>
  call<OrderView>(
    on.server,
    buyer,
    'membership.createOrder',
    { productId: PRO_MONTH.productId, provider: 'wechat' },
    'mutation',
  );

async function order(buyer: Buyer): Promise<OrderView> {
  const created = await createOrder(buyer);
  if (!created.data) throw new Error(`createOrder: ${JSON.stringify(created.error)}`);
  return created.data;
}

/** One order as the user asking sees it (their own, or not found). */
const orderView = (asker: Buyer, id: string) =>
  call<OrderView>(app.server, asker, 'membership.order', { id }, 'query');

const orderState = async (buyer: Buyer, id: string) => (await orderView(buyer, id)).data?.state;

const ordersOf = (buyer: Buyer, on = app) =>
  call<{ items: OrderView[] }>(on.server, buyer, 'membership.orders', {}, 'query');

const overviewOf = (buyer: Buyer, on = app) =>
  call<MembershipOverview>(on.server, buyer, 'membership.overview', undefined, 'query');

async function membership(buyer: Buyer) {
  const overview = await overviewOf(buyer);
  if (!overview.data) throw new Error(`overview: ${JSON.stringify(overview.error)}`);
  return { state: overview.data.state, proExpiresAt: overview.data.proExpiresAt };
}

/** The operator's membership log for an order, oldest first. */
const events = (orderId: string) => membershipEvents(app, orderId);

/** Delivers a notification and expects WeChat Pay's acknowledgement: 200, no body. */
async function accepted(notification: WechatNotification) {
  expect(await fake.deliver(notification)).toEqual({ status: 200, body: '' });
}

/** Delivers a notification and expects WeChat Pay's failure answer, so it retries. */
async function refused(notification: WechatNotification, what = 'notification') {
  const answer = await fake.deliver(notification);
  expect(answer.status, what).toBe(400);
  expect(JSON.parse(answer.body), what).toMatchObject({ code: 'FAIL', message: expect.any(String) });
}

/** Pays an order and checks the user got exactly the product's days: the new expiry. */
async function paid(buyer: Buyer, id: string) {
  const expected = await daysFromNow(PRO_MONTH.days, () => accepted(fake.notification(id, 'paid')));
  const now = await membership(buyer);
  expect(now.state).toBe('pro');
  expectExpiryWithin(now.proExpiresAt, expected);
  return now.proExpiresAt!.getTime();
}

describe('checkout', () => {
  test('the order comes back with a WeChat Pay QR code; WeChat Pay holds it with the price in fen', async () => {
    const buyer = await signedInUser(app.deps);
    expect((await overviewOf(buyer)).data).toMatchObject({
      currency: 'CNY',
      providers: expect.arrayContaining(['wechat']),
    });
    const created = await order(buyer);
    expect(created).toMatchObject({
      state: 'created',
      source: 'wechat',
      amount: PRO_MONTH.amount,
      currency: 'CNY',
      proDays: PRO_MONTH.days,
      checkout: { kind: 'qr', codeUrl: expect.stringMatching(/^weixin:\/\/wxpay\/bizpayurl\?pr=/) },
    });
    const held = fake.orders.get(created.id);
    expect(held).toMatchObject({
      appid: fake.env.WECHATPAY_APP_ID,
      mchid: fake.env.WECHATPAY_MCH_ID,
      outTradeNo: created.id,
      total: PRO_MONTH.amount,
      currency: 'CNY',
      description: created.description,
      notifyUrl: `${app.server.url}/pay/notify/wechat`,
      codeUrl: created.checkout?.kind === 'qr' ? created.checkout.codeUrl : '',
    });
    // The code expires with the order, two hours on, in China time.
    const expiresAt = Date.parse(held!.timeExpire!);
    expect(held!.timeExpire).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$/);
    expect(Math.abs(expiresAt - (created.createdAt.getTime() + 2 * 3_600_000))).toBeLessThan(60_000);
    // Every call Margin made was signed with the merchant key and answered.
    expect(fake.calls.length).toBeGreaterThan(0);
    expect(fake.calls.every((c) => c.signed && c.status === 200)).toBe(true);
    expect(fake.calls.map((c) => c.path)).toEqual(
      expect.arrayContaining(['/v3/certificates', '/v3/pay/transactions/native']),
    );
    // The page polling the order still sees the code to scan.
    expect((await orderView(buyer, created.id)).data).toMatchObject({
      state: 'created',
      checkout: created.checkout,
    });
  });

  test('an answer not signed by WeChat Pay gives no QR code, and the order is closed', async () => {
    const buyer = await signedInUser(app.deps);
    // One genuine order first: Margin then holds the platform certificate, so the forged answer
    // is checked against it (not refused for failing to fetch the certificates).
    await order(buyer);
    fake.forgeAnswers = true;
    try {
      const refusal = await createOrder(buyer);
      expect(refusal.status).toBe(500);
      expect(refusal.error).toMatchObject({ message: 'errors.paymentFailed' });
    } finally {
      fake.forgeAnswers = false;
    }
    const list = await ordersOf(buyer);
    expect(list.data?.items.map((o) => [o.state, o.checkout?.kind ?? null])).toEqual([
      ['closed', null],
      ['created', 'qr'],
    ]);
  });

  test('another user cannot read the order, and it does not change for their asking', async () => {
    const buyer = await signedInUser(app.deps);
    const other = await signedInUser(app.deps);
    const created = await order(buyer);
    const peek = await orderView(other, created.id);
    expect(peek.status).toBe(404);
    expect(peek.data).toBeUndefined();
    expect(peek.error?.data.appCode).toBe('NOT_FOUND');
    expect(await orderState(buyer, created.id)).toBe('created');
  });
});

describe('notifications', () => {
  test('paid: the order is paid and the user PRO for the product’s days', async () => {
    const buyer = await signedInUser(app.deps);
    const { id } = await order(buyer);
    expect((await membership(buyer)).state).toBe('free');
    await paid(buyer, id);
    const view = (await orderView(buyer, id)).data;
    expect(view).toMatchObject({ state: 'paid', checkout: null, paidAt: expect.any(Date) });
    expect(await events(id)).toEqual([
      expect.objectContaining({ action: 'orderPaid', days: PRO_MONTH.days }),
    ]);
  });

  test('the same notification once and then five times at once grants the days once', async () => {
    const buyer = await signedInUser(app.deps);
    const { id } = await order(buyer);
    const notification = fake.notification(id, 'paid');
    await accepted(notification);
    const expires = (await membership(buyer)).proExpiresAt!.getTime();
    await Promise.all(Array.from({ length: 5 }, () => accepted(notification)));
    // A second genuine notice about the same payment (WeChat Pay signs each delivery afresh).
    await accepted(fake.notification(id, 'paid'));
    expect((await membership(buyer)).proExpiresAt!.getTime()).toBe(expires);
    expect(await orderState(buyer, id)).toBe('paid');
    expect((await events(id)).map((e) => e.action)).toEqual(['orderPaid']);
  });

  test('forged, misnamed, tampered, late or unsigned notifications are refused and change nothing', async () => {
    const buyer = await signedInUser(app.deps);
    const { id } = await order(buyer);
    const now = clock.now();
    const forgeries: [string, WechatNotification][] = [
      [
        'signed with a key WeChat Pay never issued',
        fake.notification(id, 'paid', { signer: fake.forgerKey }),
      ],
      [
        'naming a certificate WeChat Pay never issued',
        fake.notification(id, 'paid', { serial: '7F0000000000000000000000000000000000DEAD' }),
      ],
      ['ciphertext changed', fake.notification(id, 'paid', { tamperCiphertext: true })],
      ['signed six minutes ago', fake.notification(id, 'paid', { at: new Date(now.getTime() - 6 * 60_000) })],
      [
        'signed six minutes ahead',
        fake.notification(id, 'paid', { at: new Date(now.getTime() + 6 * 60_000) }),
      ],
    ];
    const genuine = fake.notification(id, 'paid');
    const bodyChanged = {
      ...genuine,
      body: genuine.body.replace('"TRANSACTION.SUCCESS"', '"TRANSACTION.SUCCESS" '),
    };
    const { 'Wechatpay-Signature': _, ...unsignedHeaders } = genuine.headers;
    forgeries.push(
      ['body changed after signing', bodyChanged],
      ['no signature', { ...genuine, headers: unsignedHeaders }],
    );
    for (const [what, forged] of forgeries) await refused(forged, what);
    expect(await orderState(buyer, id)).toBe('created');
    expect(await membership(buyer)).toEqual({ state: 'free', proExpiresAt: null });
    expect(await events(id)).toEqual([]);
    // The genuine one still goes through afterwards.
    await accepted(genuine);
    expect(await orderState(buyer, id)).toBe('paid');
  });

  test('an amount other than the order’s is taken (a retry cannot change it), grants nothing and is logged for the operator', async () => {
    const buyer = await signedInUser(app.deps);
    const { id } = await order(buyer);
    await accepted(fake.notification(id, 'paid', { amount: 1 }));
    expect(await orderState(buyer, id)).toBe('created');
    expect((await membership(buyer)).state).toBe('free');
    expect(await events(id)).toEqual([
      expect.objectContaining({ action: 'amountMismatch', detail: expect.stringContaining('paid: 1 CNY') }),
    ]);
  });

  test('a refund seen before the payment ends the order; the payment afterwards grants nothing', async () => {
    const buyer = await signedInUser(app.deps);
    const { id } = await order(buyer);
    await accepted(fake.notification(id, 'refunded'));
    expect(await orderState(buyer, id)).toBe('refunded');
    await accepted(fake.notification(id, 'paid'));
    expect(await orderState(buyer, id)).toBe('refunded');
    expect(await membership(buyer)).toEqual({ state: 'free', proExpiresAt: null });
    expect((await events(id)).map((e) => [e.action, e.days])).toEqual([['orderRefunded', 0]]);
  });

  test('a close after the payment leaves the order paid; an unpaid order closes', async () => {
    const buyer = await signedInUser(app.deps);
    const first = await order(buyer);
    const expires = await paid(buyer, first.id);
    await accepted(fake.notification(first.id, 'closed'));
    expect(await orderState(buyer, first.id)).toBe('paid');
    expect((await membership(buyer)).proExpiresAt!.getTime()).toBe(expires);

    const second = await order(buyer);
    await accepted(fake.notification(second.id, 'closed'));
    expect(await orderState(buyer, second.id)).toBe('closed');
    await accepted(fake.notification(second.id, 'paid'));
    expect(await orderState(buyer, second.id)).toBe('closed');
    expect((await membership(buyer)).proExpiresAt!.getTime()).toBe(expires);
  });

  test('a full refund after the payment takes the days back; a partial one changes nothing', async () => {
    const buyer = await signedInUser(app.deps);
    const { id } = await order(buyer);
    const expires = await paid(buyer, id);
    await accepted(fake.notification(id, 'refunded', { amount: PRO_MONTH.amount / 2 }));
    expect(await orderState(buyer, id)).toBe('paid');
    expect((await membership(buyer)).proExpiresAt!.getTime()).toBe(expires);

    await accepted(fake.notification(id, 'refunded'));
    expect(await orderState(buyer, id)).toBe('refunded');
    const now = await membership(buyer);
    expect(now.state).toBe('expired');
    expect(now.proExpiresAt!.getTime()).toBeLessThanOrEqual(clock.now().getTime());
    expect((await events(id)).map((e) => [e.action, e.days])).toEqual([
      ['orderPaid', PRO_MONTH.days],
      ['orderRefunded', PRO_MONTH.days],
    ]);
  });
});

describe('configuration', () => {
  test('without its keys WeChat Pay is off: not offered, not orderable, no notification endpoint', () =>
    withPaymentApp({ REGION: 'chn' }, async (bare) => {
      const buyer = await signedInUser(bare.deps);
      const overview = await overviewOf(buyer, bare);
      expect(overview.data?.providers).not.toContain('wechat');
      const refusal = await createOrder(buyer, bare);
      expect(refusal.status).toBe(400);
      expect(refusal.error).toMatchObject({ message: 'errors.paymentUnavailable' });
      const notify = await fetch(`${bare.server.url}/pay/notify/wechat`, { method: 'POST', body: '{}' });
      expect(notify.status).toBe(404);
    }));

  test('answers that the APIv3 key does not open give no QR code, and the order is closed', () =>
    withPaymentApp({ REGION: 'chn', ...fake.env, WECHATPAY_API_V3_KEY: 'k'.repeat(32) }, async (wrongKey) => {
      const buyer = await signedInUser(wrongKey.deps);
      const refusal = await createOrder(buyer, wrongKey);
      expect(refusal.status).toBe(500);
      expect(refusal.error).toMatchObject({ message: 'errors.paymentFailed' });
      const list = await ordersOf(buyer, wrongKey);
      expect(list.data?.items).toEqual([expect.objectContaining({ state: 'closed', checkout: null })]);
    }));
});
