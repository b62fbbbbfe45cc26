// What the payment providers' end-to-end tests share: Margin started with membership on, buyers
// calling it over HTTP as the web app does, the operator's membership log, and PRO expiries
// checked against the clock around the act that set them.
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import superjson from 'superjson';
import { expect } from 'vitest';
import type { AppRouter } from '../../server/trpc/app.router.ts';
import { LOGIN_COOKIE_KEY } from '../../src/constants.ts';
import type { PaymentProviderId } from '../../src/schemas/membership.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { type RunningServer, startServer } from '../helpers/http.ts';
import { daysFromNow, expectExpiryWithin } from '../helpers/membership.ts';
import { signedInUser } from '../helpers/users.ts';

export interface PaymentApp {
  deps: TestDeps;
  server: RunningServer;
  close(): Promise<void>;
}

/** Margin with membership on, on a loopback port; `env` names the region and the provider's keys. */
export async function startPaymentApp(env: Record<string, string>): Promise<PaymentApp> {
  const deps = await createTestDeps({ MEMBERSHIP: 'on', ...env });
  const server = await startServer(deps);
  return {
    deps,
    server,
    async close() {
      await server.close();
      await deps.close();
    },
  };
}

/** Runs `use` against a Margin of its own (a configuration the rest of the file does not use). */
export async function withPaymentApp(
  env: Record<string, string>,
  use: (app: PaymentApp) => Promise<void>,
): Promise<void> {
  const app = await startPaymentApp(env);
  try {
    await use(app);
  } finally {
    await app.close();
  }
}

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
export type BuyerClient = ReturnType<typeof clientFor>;

/** A signed-in user of the app, with a client calling it over HTTP as the web app does. */
export async function buyer(app: PaymentApp) {
  const signedIn = await signedInUser(app.deps);
  return { ...signedIn, client: clientFor(app.server.url, signedIn.token) };
}

const createProOrder = (client: BuyerClient, provider: PaymentProviderId) =>
  client.membership.createOrder.mutate({ productId: 'pro-month', provider });

export const orderState = async (client: BuyerClient, id: string) =>
  (await client.membership.order.query({ id })).state;

/** The operator's membership log for one order: what was granted, taken back or refused. */
export function membershipEvents(app: PaymentApp, orderId: string) {
  return app.deps.orm.em
    .fork()
    .getConnection()
    .execute<{ action: string; days: number | null; detail: string | null }[]>(
      'select action, days, detail from membership_event where order_id = ? order by id',
      [orderId],
    );
}

/** Expects the call to be refused over tRPC with error data matching `data`. */
export async function expectRefusal(call: Promise<unknown>, data: Record<string, unknown>) {
  const error = await call.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TRPCClientError);
  expect((error as TRPCClientError<AppRouter>).data).toMatchObject(data);
}

/**
 * A provider without its keys: ordering through it is refused as unavailable, no order is made,
 * and its notification URL is not there.
 */
export async function expectProviderOff(
  app: PaymentApp,
  client: BuyerClient,
  provider: PaymentProviderId,
  notification: { contentType: string; body: string },
) {
  await expectRefusal(createProOrder(client, provider), {
    code: 'BAD_REQUEST',
    messageKey: 'errors.paymentUnavailable',
  });
  expect((await client.membership.orders.query({})).items).toEqual([]);
  const response = await fetch(`${app.server.url}/pay/notify/${provider}`, {
    method: 'POST',
    headers: { 'content-type': notification.contentType },
    body: notification.body,
  });
  expect(response.status).toBe(404);
}

/** How a test reads the buyer's membership (the membership page, or what the app tells them). */
type MembershipView = (
  client: BuyerClient,
) => Promise<{ state: string | undefined; proExpiresAt: Date | null }>;

/**
 * Orders paid through one provider, and the checks every provider's tests make on them, against
 * the file's Margin (`app()`, started in beforeAll), reading the buyer's membership through
 * `membership`.
 */
export function paymentsThrough(
  provider: PaymentProviderId,
  app: () => PaymentApp,
  membership: MembershipView,
) {
  /** The product ordered: PRO for a month in the app's region. */
  const product = () => {
    const { membershipConfig, region } = app().deps.config;
    const found = membershipConfig.prices[region].products.find((p) => p.id === 'pro-month');
    if (!found) throw new Error('no product pro-month');
    return found;
  };
  const orderPro = (client: BuyerClient) => createProOrder(client, provider);
  const eventsOf = (orderId: string) => membershipEvents(app(), orderId);

  return {
    product,
    orderPro,
    eventsOf,

    /** Another user asks for a buyer's order: not found, and their own list stays empty. */
    async expectOrderHiddenFromOthers() {
      const owner = await buyer(app());
      const order = await orderPro(owner.client);
      const other = await buyer(app());
      await expectRefusal(other.client.membership.order.query({ id: order.id }), { code: 'NOT_FOUND' });
      expect((await other.client.membership.orders.query({})).items).toEqual([]);
    },

    /**
     * Paid once: the order paid and off its checkout, the buyer PRO until `expected`, and one
     * grant of the product's days in the operator's log.
     */
    async expectPaid(client: BuyerClient, orderId: string, expected: { min: number; max: number }) {
      expect(await client.membership.order.query({ id: orderId })).toMatchObject({
        state: 'paid',
        checkout: null,
      });
      const after = await membership(client);
      expect(after.state).toBe('pro');
      expectExpiryWithin(after.proExpiresAt, expected);
      expect(await eventsOf(orderId)).toEqual([{ action: 'orderPaid', days: product().days, detail: null }]);
    },

    /** The order still waits for its payment, and the buyer is still free. */
    async expectNothingGranted(client: BuyerClient, orderId: string) {
      expect(await orderState(client, orderId)).toBe('created');
      expect(await membership(client)).toEqual({ state: 'free', proExpiresAt: null });
    },

    /** Refunded before it was paid: the payment after it granted nothing, the refund took nothing. */
    async expectRefundedUnpaid(client: BuyerClient, orderId: string) {
      expect(await orderState(client, orderId)).toBe('refunded');
      expect(await membership(client)).toEqual({ state: 'free', proExpiresAt: null });
      expect((await eventsOf(orderId)).map((e) => [e.action, e.days])).toEqual([['orderRefunded', 0]]);
    },

    /**
     * A partial refund changes nothing; the full refund takes all the days back (the membership
     * ends at the refund), and a copy of it takes nothing more. The acts tell Margin what the
     * provider would and check it acknowledged; `refundAll` sends the same refund each time.
     */
    async expectPartialThenFullRefund(
      client: BuyerClient,
      orderId: string,
      acts: { pay(): Promise<unknown>; refundPart(): Promise<void>; refundAll(): Promise<void> },
    ) {
      await acts.pay();
      const paid = await membership(client);
      expect(paid.state).toBe('pro');
      await acts.refundPart();
      expect(await orderState(client, orderId)).toBe('paid');
      expect(await membership(client)).toEqual(paid);

      const refundedAt = await daysFromNow(0, acts.refundAll);
      expect(await orderState(client, orderId)).toBe('refunded');
      const after = await membership(client);
      expect(after.state).toBe('expired');
      expectExpiryWithin(after.proExpiresAt, refundedAt);
      expect((await eventsOf(orderId)).map((e) => [e.action, e.days])).toEqual([
        ['orderPaid', product().days],
        ['orderRefunded', product().days],
      ]);
      await acts.refundAll();
      expect((await eventsOf(orderId)).length).toBe(2);
    },
  };
}
