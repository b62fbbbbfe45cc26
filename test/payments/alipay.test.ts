// Alipay end to end: a signed-in user orders PRO over HTTP, the real alipay-sdk precreates the
// trade on a local Alipay gateway (locally made keys on both sides), and the gateway's signed
// notifications reach /pay/notify/alipay: what moves the order, what is refused, and what the
// buyer's membership shows after each.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clock } from '../../server/clock.ts';
import { newOrderId, ORDER_OPEN_MS } from '../../server/domain/membership/orders.ts';
import { alipayProvider } from '../../server/domain/membership/providers/alipay.ts';
import { daysFromNow } from '../helpers/membership.ts';
import {
  alipayTime,
  type FakeAlipay,
  type NotifyOptions,
  rsaKeyPair,
  startFakeAlipay,
} from './fake-alipay.ts';
import {
  type BuyerClient,
  buyer,
  expectProviderOff,
  expectRefusal,
  orderState,
  type PaymentApp,
  paymentsThrough,
  startPaymentApp,
  withPaymentApp,
} from './payment-test-kit.ts';

let fake: FakeAlipay;
let keyDir: string;
let app: PaymentApp;

beforeAll(async () => {
  fake = await startFakeAlipay();
  keyDir = await mkdtemp(join(tmpdir(), 'margin-alipay-'));
  const keys = fake.writeKeyFiles(keyDir);
  app = await startPaymentApp({
    REGION: 'chn',
    ALIPAY_APP_ID: fake.appId,
    ALIPAY_PRIVATE_KEY_FILE: keys.privateKeyFile,
    ALIPAY_PUBLIC_KEY_FILE: keys.publicKeyFile,
    ALIPAY_GATEWAY_URL: fake.gatewayUrl,
  });
});
afterAll(async () => {
  await app?.close();
  await fake?.close();
  await rm(keyDir, { recursive: true, force: true });
});

/** The buyer's membership as the membership page shows it. */
async function membership(client: BuyerClient) {
  const { state, proExpiresAt } = await client.membership.overview.query();
  return { state, proExpiresAt };
}

const payments = paymentsThrough('alipay', () => app, membership);

const SUCCESS = { status: 200, body: 'success' };
const FAILURE = { status: 400, body: 'failure' };
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** A notify_time `ms` from now by the shared clock. */
const alipayTimeIn = (ms: number) => alipayTime(new Date(clock.now().getTime() + ms));

describe('checkout', () => {
  test('the order is precreated on Alipay: a QR code, the order amount in yuan, our notify URL', async () => {
    const { client } = await buyer(app);
    const order = await payments.orderPro(client);
    expect(order).toMatchObject({
      state: 'created',
      source: 'alipay',
      currency: 'CNY',
      proDays: payments.product().days,
    });
    const trade = fake.trade(order.id);
    expect(trade).toMatchObject({
      outTradeNo: order.id,
      totalAmount: (payments.product().amount / 100).toFixed(2),
      subject: order.description,
      notifyUrl: `${app.server.url}/pay/notify/alipay`,
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
    const { client } = await buyer(app);
    fake.signAnswersWith(rsaKeyPair().privateKey);
    try {
      await expectRefusal(payments.orderPro(client), { messageKey: 'errors.paymentFailed' });
    } finally {
      fake.signAnswersWith(null);
    }
    const { items } = await client.membership.orders.query({});
    expect(items).toMatchObject([{ state: 'closed', checkout: null }]);
  });

  test("another user's order is not found, and not in their list", () =>
    payments.expectOrderHiddenFromOthers());
});

describe('notifications', () => {
  test('paid: the order is paid and the buyer is PRO for the product days', async () => {
    const { client } = await buyer(app);
    const order = await payments.orderPro(client);
    expect(await membership(client)).toEqual({ state: 'free', proExpiresAt: null });
    const expected = await daysFromNow(payments.product().days, async () => {
      expect(await fake.notify(order.id, 'paid')).toEqual(SUCCESS);
    });
    await payments.expectPaid(client, order.id, expected);
  });

  test('the same notification again, then five at once, and TRADE_FINISHED later: granted once', async () => {
    const { client } = await buyer(app);
    const order = await payments.orderPro(client);
    const expected = await daysFromNow(payments.product().days, async () => {
      expect(await fake.notify(order.id, 'paid')).toEqual(SUCCESS);
    });
    const copies = await Promise.all(Array.from({ length: 5 }, () => fake.notify(order.id, 'paid')));
    expect(copies).toEqual(Array(5).fill(SUCCESS));
    expect(await fake.notify(order.id, 'finished')).toEqual(SUCCESS);
    await payments.expectPaid(client, order.id, expected);
  });

  test('forged, for another app, tampered after signing, or sent too long ago or ahead: refused, nothing changes', async () => {
    const { client } = await buyer(app);
    const order = await payments.orderPro(client);
    const attempts: NotifyOptions[] = [
      { signWith: rsaKeyPair().privateKey },
      // Genuinely signed by Alipay, but about another merchant's app.
      { set: { app_id: '2021000000000001' } },
      { tamper: { total_amount: '0.01' } },
      { tamper: { sign: 'AAAA' } },
      // Genuinely signed, but sent a year ago, longer ago than Alipay repeats one, or ahead of the clock.
      { set: { notify_time: alipayTimeIn(-365 * DAY_MS) } },
      { set: { notify_time: alipayTimeIn(-27 * HOUR_MS) } },
      { set: { notify_time: alipayTimeIn(10 * MINUTE_MS) } },
      { set: { notify_time: alipayTimeIn(365 * DAY_MS) } },
      { set: { notify_time: 'yesterday' } },
    ];
    for (const options of attempts)
      expect(await fake.notify(order.id, 'paid', options), JSON.stringify(options)).toEqual(FAILURE);
    // A refund forged for the order changes nothing either.
    expect(await fake.notify(order.id, 'refunded', { signWith: rsaKeyPair().privateKey })).toEqual(FAILURE);
    await payments.expectNothingGranted(client, order.id);
    expect(await payments.eventsOf(order.id)).toEqual([]);
    // The genuine one still goes through, and so does Alipay's last repeat of it, 25 hours on.
    expect(await fake.notify(order.id, 'paid')).toEqual(SUCCESS);
    expect(await orderState(client, order.id)).toBe('paid');
    expect(
      await fake.notify(order.id, 'paid', { set: { notify_time: alipayTimeIn(-25 * HOUR_MS) } }),
    ).toEqual(SUCCESS);
  });

  test('a genuine notification with another amount: taken (a retry cannot change it), nothing granted, logged for the operator', async () => {
    const { client } = await buyer(app);
    const order = await payments.orderPro(client);
    expect(await fake.notify(order.id, 'paid', { set: { total_amount: '0.18' } })).toEqual(SUCCESS);
    await payments.expectNothingGranted(client, order.id);
    expect(await payments.eventsOf(order.id)).toEqual([
      {
        action: 'amountMismatch',
        days: null,
        detail: `paid: 18 CNY, order ${payments.product().amount} CNY`,
      },
    ]);
  });

  test('a refund before the payment: the order is refunded and the late payment grants nothing', async () => {
    const { client } = await buyer(app);
    const order = await payments.orderPro(client);
    expect(await fake.notify(order.id, 'refunded')).toEqual(SUCCESS);
    expect(await orderState(client, order.id)).toBe('refunded');
    expect(await fake.notify(order.id, 'paid')).toEqual(SUCCESS);
    await payments.expectRefundedUnpaid(client, order.id);
  });

  test('TRADE_CLOSED after the payment does not close the paid order', async () => {
    const { client } = await buyer(app);
    const order = await payments.orderPro(client);
    await fake.notify(order.id, 'paid');
    expect(await fake.notify(order.id, 'closed')).toEqual(SUCCESS);
    expect(await orderState(client, order.id)).toBe('paid');
    expect((await membership(client)).state).toBe('pro');
  });

  test('TRADE_CLOSED for an unpaid order closes it', async () => {
    const { client } = await buyer(app);
    const order = await payments.orderPro(client);
    expect(await fake.notify(order.id, 'closed')).toEqual(SUCCESS);
    expect(await client.membership.order.query({ id: order.id })).toMatchObject({
      state: 'closed',
      checkout: null,
    });
    expect(await fake.notify(order.id, 'paid')).toEqual(SUCCESS);
    expect(await membership(client)).toEqual({ state: 'free', proExpiresAt: null });
  });

  test('a partial refund changes nothing; the full refund takes the days back', async () => {
    const { client } = await buyer(app);
    const order = await payments.orderPro(client);
    await payments.expectPartialThenFullRefund(client, order.id, {
      pay: () => fake.notify(order.id, 'paid'),
      refundPart: async () => expect(await fake.notify(order.id, 'partlyRefunded')).toEqual(SUCCESS),
      refundAll: async () => expect(await fake.notify(order.id, 'refunded')).toEqual(SUCCESS),
    });
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
    closesAt: new Date(clock.now().getTime() + ORDER_OPEN_MS),
    email: null,
  });

  /** Runs `use` with a directory of its own for key files, removed after. */
  async function withKeyDir(use: (dir: string) => Promise<void>) {
    const dir = await mkdtemp(join(tmpdir(), 'margin-alipay-keys-'));
    try {
      await use(dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  test.each(['pkcs1Pem', 'bareBase64'] as const)(
    'keys written as %s are read: the QR code is made and a notification verified',
    (style) =>
      withKeyDir(async (dir) => {
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
      }),
  );

  test('an app key Alipay does not know: the gateway refuses the call, no QR code', () =>
    withKeyDir(async (dir) => {
      const files = fake.writeKeyFiles(dir);
      await writeFile(
        files.privateKeyFile,
        rsaKeyPair().privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      );
      const provider = alipayProvider({ appId: fake.appId, gatewayUrl: fake.gatewayUrl, ...files });
      const orderId = newOrderId();
      await expect(provider.startCheckout(checkoutOf(orderId))).rejects.toThrow(/isv.invalid-signature/);
      expect(fake.trade(orderId)).toBeUndefined();
    }));
});

describe('without keys', () => {
  test('Alipay is off: not offered, no order, its notification URL not there', async () => {
    await withPaymentApp({ REGION: 'chn' }, async (bare) => {
      const { client } = await buyer(bare);
      expect((await client.membership.overview.query()).providers).not.toContain('alipay');
      await expectProviderOff(bare, client, 'alipay', {
        contentType: 'application/x-www-form-urlencoded',
        body: 'trade_status=TRADE_SUCCESS',
      });
    });
  });
});
