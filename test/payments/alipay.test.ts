// Alipay end to end: a signed-in user orders PRO over HTTP, the real alipay-sdk precreates the
// trade on a local Alipay gateway (locally made keys on both sides), and the gateway's signed
// notifications reach /pay/notify/alipay: what moves the order, what is refused, and what the
// buyer's membership shows after each.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import superjson from 'superjson';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clock } from '../../server/clock.ts';
import { newOrderId } from '../../server/domain/membership/orders.ts';
import { alipayProvider } from '../../server/domain/membership/providers/alipay.ts';
import type { AppRouter } from '../../server/trpc/app.router.ts';
import { DAY_MS, LOGIN_COOKIE_KEY } from '../../src/constants.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { type RunningServer, startServer } from '../helpers/http.ts';
import { signedInUser } from '../helpers/users.ts';
import { type FakeAlipay, type NotifyOptions, rsaKeyPair, startFakeAlipay } from './fake-alipay.ts';

let fake: FakeAlipay;
let keyDir: string;
let deps: TestDeps;
let server: RunningServer;

beforeAll(async () => {
  fake = await startFakeAlipay();
  keyDir = await mkdtemp(join(tmpdir(), 'margin-alipay-'));
  const keys = fake.writeKeyFiles(keyDir);
  deps = await createTestDeps({
    MEMBERSHIP: 'on',
    REGION: 'chn',
    ALIPAY_APP_ID: fake.appId,
    ALIPAY_PRIVATE_KEY_FILE: keys.privateKeyFile,
    ALIPAY_PUBLIC_KEY_FILE: keys.publicKeyFile,
    ALIPAY_GATEWAY_URL: fake.gatewayUrl,
  });
  server = await startServer(deps);
});
afterAll(async () => {
  await server?.close();
  await deps?.close();
  await fake?.close();
  await rm(keyDir, { recursive: true, force: true });
});

function clientFor(url: string, token: string) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${url}/trpc`,
        transformer: superjson,
        headers: { cookie: `${LOGIN_COOKIE_KEY}=${token}` },
      }),
    ],
  });
}

/** A signed-in user of the app, calling it over HTTP as the web app does. */
async function buyer(on: { deps: TestDeps; server: RunningServer } = { deps, server }) {
  const user = await signedInUser(on.deps);
  return clientFor(on.server.url, user.token);
}
type Buyer = Awaited<ReturnType<typeof buyer>>;

function product(id = 'pro-month') {
  const found = deps.config.membershipConfig.prices.chn.products.find((p) => p.id === id);
  if (!found) throw new Error(`no product ${id}`);
  return found;
}

const orderPro = (client: Buyer) =>
  client.membership.createOrder.mutate({ productId: 'pro-month', provider: 'alipay' });

/** The buyer's membership as the membership page shows it. */
async function membership(client: Buyer) {
  const { state, proExpiresAt } = await client.membership.overview.query();
  return { state, proExpiresAt };
}

const orderState = async (client: Buyer, id: string) => (await client.membership.order.query({ id })).state;

/** The operator's membership log for one order: what was granted, taken back or refused. */
async function eventsOf(orderId: string) {
  return deps.orm.em
    .fork()
    .getConnection()
    .execute<{ action: string; days: number | null; detail: string | null }[]>(
      'select action, days, detail from membership_event where order_id = ? order by id',
      [orderId],
    );
}

/** Runs `act` and answers the PRO expiry it should leave: `days` from when it ran. */
async function daysFromNow(days: number, act: () => Promise<unknown>) {
  const before = clock.now().getTime();
  await act();
  const after = clock.now().getTime();
  return { min: before + days * DAY_MS, max: after + days * DAY_MS };
}

function expectExpiryWithin(expiry: Date | null, range: { min: number; max: number }) {
  expect(expiry).toBeInstanceOf(Date);
  expect(expiry!.getTime()).toBeGreaterThanOrEqual(range.min);
  expect(expiry!.getTime()).toBeLessThanOrEqual(range.max);
}

const SUCCESS = { status: 200, body: 'success' };
const FAILURE = { status: 400, body: 'failure' };

describe('checkout', () => {
  test('the order is precreated on Alipay: a QR code, the order amount in yuan, our notify URL', async () => {
    const client = await buyer();
    const order = await orderPro(client);
    expect(order).toMatchObject({
      state: 'created',
      source: 'alipay',
      currency: 'CNY',
      proDays: product().days,
    });
    const trade = fake.trade(order.id);
    expect(trade).toMatchObject({
      outTradeNo: order.id,
      totalAmount: (product().amount / 100).toFixed(2),
      subject: order.description,
      notifyUrl: `${server.url}/pay/notify/alipay`,
      // No code outlives its order (closed after two hours unpaid).
      timeoutExpress: '120m',
    });
    expect(order.checkout).toEqual({ kind: 'qr', codeUrl: trade!.qrCode });
    expect(await client.membership.order.query({ id: order.id })).toMatchObject({
      state: 'created',
      checkout: { kind: 'qr', codeUrl: trade!.qrCode },
    });
  });

  test('an answer not signed by Alipay is not trusted: no QR code, the order closed', async () => {
    const client = await buyer();
    fake.signAnswersWith(rsaKeyPair().privateKey);
    try {
      const error = await orderPro(client).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TRPCClientError);
      expect((error as TRPCClientError<AppRouter>).data).toMatchObject({
        messageKey: 'errors.paymentFailed',
      });
    } finally {
      fake.signAnswersWith(null);
    }
    const { items } = await client.membership.orders.query({});
    expect(items).toMatchObject([{ state: 'closed', checkout: null }]);
  });

  test("another user's order is not found, and not in their list", async () => {
    const owner = await buyer();
    const order = await orderPro(owner);
    const other = await buyer();
    const error = await other.membership.order.query({ id: order.id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect((error as TRPCClientError<AppRouter>).data).toMatchObject({ code: 'NOT_FOUND' });
    expect((await other.membership.orders.query({})).items).toEqual([]);
  });
});

describe('notifications', () => {
  test('paid: the order is paid and the buyer is PRO for the product days', async () => {
    const client = await buyer();
    const order = await orderPro(client);
    expect(await membership(client)).toEqual({ state: 'free', proExpiresAt: null });
    const expected = await daysFromNow(product().days, async () => {
      expect(await fake.notify(order.id, 'paid')).toEqual(SUCCESS);
    });
    expect(await client.membership.order.query({ id: order.id })).toMatchObject({
      state: 'paid',
      checkout: null,
    });
    const after = await membership(client);
    expect(after.state).toBe('pro');
    expectExpiryWithin(after.proExpiresAt, expected);
    expect(await eventsOf(order.id)).toEqual([{ action: 'orderPaid', days: product().days, detail: null }]);
  });

  test('the same notification again, then five at once, and TRADE_FINISHED later: granted once', async () => {
    const client = await buyer();
    const order = await orderPro(client);
    const expected = await daysFromNow(product().days, async () => {
      expect(await fake.notify(order.id, 'paid')).toEqual(SUCCESS);
    });
    const copies = await Promise.all(Array.from({ length: 5 }, () => fake.notify(order.id, 'paid')));
    expect(copies).toEqual(Array(5).fill(SUCCESS));
    expect(await fake.notify(order.id, 'finished')).toEqual(SUCCESS);
    expect(await orderState(client, order.id)).toBe('paid');
    expectExpiryWithin((await membership(client)).proExpiresAt, expected);
    expect((await eventsOf(order.id)).map((e) => e.action)).toEqual(['orderPaid']);
  });

  test('forged, for another app, or tampered after signing: refused, nothing changes', async () => {
    const client = await buyer();
    const order = await orderPro(client);
    const attempts: NotifyOptions[] = [
      { signWith: rsaKeyPair().privateKey },
      // Genuinely signed by Alipay, but about another merchant's app.
      { set: { app_id: '2021000000000001' } },
      { tamper: { total_amount: '0.01' } },
      { tamper: { sign: 'AAAA' } },
    ];
    for (const options of attempts)
      expect(await fake.notify(order.id, 'paid', options), JSON.stringify(options)).toEqual(FAILURE);
    // A refund forged for the order changes nothing either.
    expect(await fake.notify(order.id, 'refunded', { signWith: rsaKeyPair().privateKey })).toEqual(FAILURE);
    expect(await orderState(client, order.id)).toBe('created');
    expect(await membership(client)).toEqual({ state: 'free', proExpiresAt: null });
    expect(await eventsOf(order.id)).toEqual([]);
    // The genuine one still goes through.
    expect(await fake.notify(order.id, 'paid')).toEqual(SUCCESS);
    expect(await orderState(client, order.id)).toBe('paid');
  });

  test('a genuine notification with another amount: refused, nothing granted, logged for the operator', async () => {
    const client = await buyer();
    const order = await orderPro(client);
    expect(await fake.notify(order.id, 'paid', { set: { total_amount: '0.18' } })).toEqual(FAILURE);
    expect(await orderState(client, order.id)).toBe('created');
    expect(await membership(client)).toEqual({ state: 'free', proExpiresAt: null });
    expect(await eventsOf(order.id)).toEqual([
      { action: 'amountMismatch', days: null, detail: `paid: 18 CNY, order ${product().amount} CNY` },
    ]);
  });

  test('a refund before the payment: the order is refunded and the late payment grants nothing', async () => {
    const client = await buyer();
    const order = await orderPro(client);
    expect(await fake.notify(order.id, 'refunded')).toEqual(SUCCESS);
    expect(await orderState(client, order.id)).toBe('refunded');
    expect(await fake.notify(order.id, 'paid')).toEqual(SUCCESS);
    expect(await orderState(client, order.id)).toBe('refunded');
    expect(await membership(client)).toEqual({ state: 'free', proExpiresAt: null });
    expect((await eventsOf(order.id)).map((e) => [e.action, e.days])).toEqual([['orderRefunded', 0]]);
  });

  test('TRADE_CLOSED after the payment does not close the paid order', async () => {
    const client = await buyer();
    const order = await orderPro(client);
    await fake.notify(order.id, 'paid');
    expect(await fake.notify(order.id, 'closed')).toEqual(SUCCESS);
    expect(await orderState(client, order.id)).toBe('paid');
    expect((await membership(client)).state).toBe('pro');
  });

  test('TRADE_CLOSED for an unpaid order closes it', async () => {
    const client = await buyer();
    const order = await orderPro(client);
    expect(await fake.notify(order.id, 'closed')).toEqual(SUCCESS);
    expect(await client.membership.order.query({ id: order.id })).toMatchObject({
      state: 'closed',
      checkout: null,
    });
    expect(await fake.notify(order.id, 'paid')).toEqual(SUCCESS);
    expect(await membership(client)).toEqual({ state: 'free', proExpiresAt: null });
  });

  test('a partial refund changes nothing; the full refund takes the days back', async () => {
    const client = await buyer();
    const order = await orderPro(client);
    await fake.notify(order.id, 'paid');
    const paid = await membership(client);
    expect(paid.state).toBe('pro');
    expect(await fake.notify(order.id, 'partlyRefunded')).toEqual(SUCCESS);
    expect(await orderState(client, order.id)).toBe('paid');
    expect(await membership(client)).toEqual(paid);

    const refundedAt = await daysFromNow(0, async () => {
      expect(await fake.notify(order.id, 'refunded')).toEqual(SUCCESS);
    });
    expect(await orderState(client, order.id)).toBe('refunded');
    const after = await membership(client);
    // All the days taken back: the membership ends at the refund.
    expect(after.state).toBe('expired');
    expectExpiryWithin(after.proExpiresAt, refundedAt);
    expect((await eventsOf(order.id)).map((e) => [e.action, e.days])).toEqual([
      ['orderPaid', product().days],
      ['orderRefunded', product().days],
    ]);
    // A copy of the refund takes nothing more.
    expect(await fake.notify(order.id, 'refunded')).toEqual(SUCCESS);
    expect((await eventsOf(order.id)).length).toBe(2);
  });
});

describe('key files', () => {
  /** A one-fen checkout, as the order code asks for it. */
  const checkoutOf = (orderId: string) => ({
    orderId,
    amount: 1,
    currency: 'CNY' as const,
    description: 'Margin PRO · 1 days',
    notifyUrl: 'http://127.0.0.1:9/pay/notify/alipay',
    returnUrl: 'http://127.0.0.1:9/',
    email: null,
  });

  test.each(['pkcs1Pem', 'bareBase64'] as const)(
    'keys written as %s are read: the QR code is made and a notification verified',
    async (style) => {
      const dir = await mkdtemp(join(tmpdir(), 'margin-alipay-keys-'));
      try {
        const provider = alipayProvider({
          appId: fake.appId,
          gatewayUrl: fake.gatewayUrl,
          ...fake.writeKeyFiles(dir, style),
        });
        const orderId = newOrderId();
        const checkout = await provider.startCheckout(checkoutOf(orderId));
        expect(fake.trade(orderId)?.totalAmount).toBe('0.01');
        expect(checkout).toEqual({ kind: 'qr', codeUrl: fake.trade(orderId)?.qrCode });
        const rawBody = Buffer.from(fake.notificationBody(orderId, 'paid'));
        expect(await provider.readNotification({ headers: {}, rawBody })).toEqual({
          type: 'paid',
          orderId,
          amount: 1,
          currency: 'CNY',
          providerRef: fake.trade(orderId)?.tradeNo,
        });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );

  test('an app key Alipay does not know: the gateway refuses the call, no QR code', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'margin-alipay-keys-'));
    try {
      const files = fake.writeKeyFiles(dir);
      await writeFile(
        files.privateKeyFile,
        rsaKeyPair().privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      );
      const provider = alipayProvider({ appId: fake.appId, gatewayUrl: fake.gatewayUrl, ...files });
      const orderId = newOrderId();
      await expect(provider.startCheckout(checkoutOf(orderId))).rejects.toThrow(/isv.invalid-signature/);
      expect(fake.trade(orderId)).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('without keys', () => {
  let bare: TestDeps;
  let bareServer: RunningServer;
  beforeAll(async () => {
    bare = await createTestDeps({ MEMBERSHIP: 'on', REGION: 'chn' });
    bareServer = await startServer(bare);
  });
  afterAll(async () => {
    await bareServer?.close();
    await bare?.close();
  });

  test('Alipay is off: not offered, no order, its notification URL not there', async () => {
    const client = await buyer({ deps: bare, server: bareServer });
    expect((await client.membership.overview.query()).providers).not.toContain('alipay');
    const error = await orderPro(client).catch((e: unknown) => e);
    expect((error as TRPCClientError<AppRouter>).data).toMatchObject({
      code: 'BAD_REQUEST',
      messageKey: 'errors.paymentUnavailable',
    });
    expect((await client.membership.orders.query({})).items).toEqual([]);
    const response = await fetch(`${bareServer.url}/pay/notify/alipay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'trade_status=TRADE_SUCCESS',
    });
    expect(response.status).toBe(404);
  });
});
