import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { MembershipState, MemberTier } from '../../../src/enums.ts';
import { AppError } from '../../../src/errors.ts';
import { membershipState, memberTier } from '../../../src/rules/member-level.ts';
import type {
  CreateOrderInput,
  Currency,
  OrderList,
  OrderSource,
  OrderView,
  PaymentProviderId,
  Product,
} from '../../../src/schemas/membership.ts';
import { clock } from '../../clock.ts';
import type { AppConfig } from '../../config.ts';
import { Order, type User } from '../../db/entities/index.ts';
import { log } from '../../log.ts';
import { decodeCursor, pageOf } from '../cursor.ts';
import { enforceLimits, LIMITS, type LimitStore } from '../rate-limit.ts';
import type { Member } from './gate.ts';
import { grantProDays, logMembership, revokeProDays } from './grants.ts';
import { paymentProviders } from './providers/index.ts';
import type { PaymentNotice } from './providers/types.ts';

// Orders: created → paid → (refunded | closed). Every state change is one conditional UPDATE
// (`where state = …`), so of any number of notifications about one order exactly one moves it,
// and PRO days are granted (or taken back) in that same transaction.

/** How long an unpaid order stays open (a WeChat Pay code expires after two hours). */
export const ORDER_OPEN_MS = 2 * 60 * 60_000;

export type OfferSettings = Pick<AppConfig, 'region' | 'membershipConfig' | 'payments'>;
export type OrderSettings = OfferSettings & Pick<AppConfig, 'membership'> & LimitStore;

/** 'mo' and 22 base-36 characters: fits every provider's order-number rules. */
export function newOrderId(): string {
  const bytes = randomBytes(22);
  let id = 'mo';
  for (const byte of bytes) id += (byte % 36).toString(36);
  return id;
}

export function orderView(order: Order): OrderView {
  return {
    id: order.id,
    state: order.state,
    source: order.source,
    tier: order.tier,
    amount: order.amount,
    currency: order.currency,
    proDays: order.proDays,
    remark: order.remark ?? null,
    description: order.description,
    createdAt: order.createdAt,
    paidAt: order.paidAt ?? null,
    checkout: order.state === 'created' ? (order.checkout ?? null) : null,
  };
}

/**
 * What a member may buy. One expiry serves pro and super pro, so a running super pro membership
 * is extended only as super pro (pro days would otherwise renew it at the pro price), and a paid
 * level without an end needs nothing.
 */
function purchasable(products: readonly Product[], member: Member): Product[] {
  const tier = memberTier(member.memberLevel);
  if (tier !== MemberTier.free && member.proExpiresAt == null) return [];
  const state = membershipState(member.memberLevel, member.proExpiresAt, clock.now());
  return state === MembershipState.superPro
    ? products.filter((p) => p.tier === MemberTier.superPro)
    : [...products];
}

/** The region's products this member may buy, and the providers among the region's that have keys. */
export function regionOffer(settings: OfferSettings, member: Member) {
  const prices = settings.membershipConfig.prices[settings.region];
  const providers = paymentProviders(settings.payments);
  return {
    currency: prices.currency,
    products: purchasable(prices.products, member),
    providers: prices.providers.filter((id) => providers[id]),
  };
}

function productDescription(product: Product): string {
  return `Margin ${product.tier === 'superPro' ? 'Super PRO' : 'PRO'} · ${product.days} days`;
}

/**
 * A new order for one of the region's products, paid through one of its configured providers:
 * the order is stored first, then the provider's payment is made for it (the order id travels
 * with the payment and comes back in the notification). Refused while the install sells no memberships.
 */
export async function createOrder(
  em: EntityManager,
  settings: OrderSettings,
  user: User,
  input: CreateOrderInput,
  urls: { origin: string },
): Promise<OrderView> {
  if (!settings.membership) throw new AppError('BAD_REQUEST', 'errors.membershipOff');
  const offer = regionOffer(settings, user);
  const product = offer.products.find((p) => p.id === input.productId);
  if (!product) throw new AppError('NOT_FOUND', 'errors.productUnknown');
  const provider = offer.providers.includes(input.provider)
    ? paymentProviders(settings.payments)[input.provider]
    : undefined;
  if (!provider) throw new AppError('BAD_REQUEST', 'errors.paymentUnavailable');
  // Each order is a live call to the provider: counted before anything is stored.
  await enforceLimits(settings.redis, settings.redisPrefix, [
    { key: `orders:hour:${user.id}`, ...LIMITS.orders.perUserHour },
  ]);
  const order = em.create(Order, {
    id: newOrderId(),
    user: user.id,
    source: input.provider,
    productId: product.id,
    tier: product.tier,
    proDays: product.days,
    amount: product.amount,
    currency: offer.currency,
    description: productDescription(product),
  });
  await em.flush();
  try {
    order.checkout = await provider.startCheckout({
      orderId: order.id,
      amount: order.amount,
      currency: order.currency,
      description: order.description,
      notifyUrl: `${urls.origin}/pay/notify/${provider.id}`,
      returnUrl: `${urls.origin}/personSetting/paylog?order=${order.id}`,
      closesAt: new Date(order.createdAt.getTime() + ORDER_OPEN_MS),
      email: user.email ?? null,
    });
  } catch (error) {
    log.warn('payment checkout failed', {
      provider: provider.id,
      order: order.id,
      error: (error as Error).message,
    });
    order.state = 'closed';
    order.endedAt = clock.now();
    order.remark = 'checkout failed';
    await em.flush();
    throw new AppError('INTERNAL', 'errors.paymentFailed');
  }
  await em.flush();
  return orderView(order);
}

/** One of the user's orders (another user's id is not found). */
export async function getOrder(em: EntityManager, user: User, id: string): Promise<OrderView> {
  const order = await em.findOne(Order, { id, user: user.id });
  if (!order) throw new AppError('NOT_FOUND', 'errors.notFound');
  return orderView(order);
}

/** The user's orders, newest first, a page at a time. */
export async function listOrders(
  em: EntityManager,
  user: User,
  input: { cursor?: string | null; limit: number },
): Promise<OrderList> {
  const after = decodeCursor(input.cursor);
  const rows = await em.find(
    Order,
    {
      user: user.id,
      ...(after
        ? {
            $or: [
              { createdAt: { $lt: after.createdAt } },
              { createdAt: after.createdAt, id: { $lt: after.id } },
            ],
          }
        : {}),
    },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit: input.limit + 1 },
  );
  const page = pageOf(rows, input.limit);
  return { items: page.items.map(orderView), nextCursor: page.nextCursor };
}

type Transition = { from: readonly Order['state'][]; to: Order['state'] };
const TO_PAID: Transition = { from: ['created'], to: 'paid' };
const TO_CLOSED: Transition = { from: ['created'], to: 'closed' };
/** A refund seen before the payment (events out of order) ends the order without granting. */
const TO_REFUNDED: Transition = { from: ['created', 'paid'], to: 'refunded' };

/**
 * Moves an order if it is in one of the `from` states, in one statement: the row lock makes
 * concurrent movers wait and then find it moved. Returns the order as it was before, or null.
 */
async function transition(
  em: EntityManager,
  orderId: string,
  step: Transition,
  set: { providerRef?: string | null; remark?: string | null } = {},
): Promise<{ previous: Order['state']; userId: number; proDays: number; tier: Order['tier'] } | null> {
  const now = clock.now();
  const rows: {
    previous: Order['state'];
    user_id: string | number;
    pro_days: number;
    tier: Order['tier'];
  }[] = await em.execute(
    `update "order" o set
         "state" = ?,
         "paid_at" = case when ? = 'paid' then ? else o."paid_at" end,
         "ended_at" = case when ? in ('refunded', 'closed') then ? else o."ended_at" end,
         "provider_ref" = coalesce(?, o."provider_ref"),
         "remark" = coalesce(?, o."remark"),
         "updated_at" = ?
       from (select "id", "state" from "order" where "id" = ? for update) prior
       where o."id" = prior."id" and prior."state" in (${step.from.map(() => '?').join(', ')})
       returning prior."state" as previous, o."user_id", o."pro_days", o."tier"`,
    [
      step.to,
      step.to,
      now,
      step.to,
      now,
      set.providerRef ?? null,
      set.remark ?? null,
      now,
      orderId,
      ...step.from,
    ],
  );
  const row = rows[0];
  return row
    ? { previous: row.previous, userId: Number(row.user_id), proDays: row.pro_days, tier: row.tier }
    : null;
}

/** Paid: PRO days granted once, with the order's state, in one transaction. */
export async function markOrderPaid(
  em: EntityManager,
  orderId: string,
  actor: string,
  providerRef: string | null = null,
): Promise<boolean> {
  return em.transactional(async (tx) => {
    const moved = await transition(tx, orderId, TO_PAID, { providerRef });
    if (!moved) return false;
    await grantProDays(tx, {
      userId: moved.userId,
      days: moved.proDays,
      tier: moved.tier,
      actor,
      action: 'orderPaid',
      orderId,
    });
    return true;
  });
}

/** Refunded: the order's PRO days are taken back if they were granted. */
export async function markOrderRefunded(
  em: EntityManager,
  orderId: string,
  actor: string,
  remark: string | null = null,
): Promise<boolean> {
  return em.transactional(async (tx) => {
    const moved = await transition(tx, orderId, TO_REFUNDED, { remark });
    if (!moved) return false;
    const change = { userId: moved.userId, days: moved.proDays, actor, orderId };
    if (moved.previous === 'paid') await revokeProDays(tx, { ...change, action: 'orderRefunded' });
    else
      await logMembership(tx, {
        ...change,
        days: 0,
        action: 'orderRefunded',
        detail: 'refunded before it was paid',
      });
    return true;
  });
}

/** Closed: an unpaid order that expired or that the provider closed. */
export async function markOrderClosed(em: EntityManager, orderId: string, actor: string): Promise<boolean> {
  return em.transactional(async (tx) => {
    const moved = await transition(tx, orderId, TO_CLOSED);
    if (!moved) return false;
    await logMembership(tx, { userId: moved.userId, actor, action: 'orderClosed', orderId });
    return true;
  });
}

/**
 * Applies a verified notification. A paid or refunded notice whose amount or currency is not
 * the order's changes nothing and is logged for the operator. Answers whether the notification
 * was taken (a notice about an unknown order is not, so the provider can retry while the order
 * row is still being written).
 */
export async function applyPaymentNotice(
  em: EntityManager,
  provider: PaymentProviderId,
  notice: PaymentNotice,
): Promise<'applied' | 'unchanged' | 'unknownOrder' | 'amountMismatch'> {
  if (notice.type === 'ignored') return 'unchanged';
  const order = await em.fork().findOne(Order, { id: notice.orderId });
  if (!order) return 'unknownOrder';
  const actor = `order:${provider}`;
  if (order.source !== provider) return 'unknownOrder';
  if (
    notice.type !== 'closed' &&
    (notice.amount !== order.amount || notice.currency.toUpperCase() !== order.currency)
  ) {
    const detail = `${notice.type}: ${notice.amount} ${notice.currency}, order ${order.amount} ${order.currency}`;
    log.warn('payment amount mismatch', { provider, order: order.id, detail });
    await logMembership(em.fork(), {
      userId: order.user.id,
      actor,
      action: 'amountMismatch',
      orderId: order.id,
      detail,
    });
    return 'amountMismatch';
  }
  const moved =
    notice.type === 'paid'
      ? await markOrderPaid(em, order.id, actor, notice.providerRef)
      : notice.type === 'refunded'
        ? await markOrderRefunded(em, order.id, actor)
        : await markOrderClosed(em, order.id, actor);
  // Read again: the hourly close may have moved it since the read above.
  if (!moved && notice.type === 'paid' && (await em.fork().findOne(Order, order.id))?.state === 'closed') {
    // Money for an order that had closed unpaid: nothing is granted on its own, the operator decides.
    const detail = `paid after close: ${notice.amount} ${notice.currency}, ref ${notice.providerRef}`;
    log.warn('payment for a closed order', { provider, order: order.id });
    await logMembership(em.fork(), {
      userId: order.user.id,
      actor,
      action: 'paidAfterClose',
      orderId: order.id,
      detail,
    });
  }
  return moved ? 'applied' : 'unchanged';
}

/** Closes unpaid orders older than ORDER_OPEN_MS (the maintenance job). */
export async function closeStaleOrders(em: EntityManager, now = clock.now()): Promise<number> {
  const stale = await em.find(
    Order,
    { state: 'created', createdAt: { $lte: new Date(now.getTime() - ORDER_OPEN_MS) } },
    { fields: ['id'], limit: 1000 },
  );
  let closed = 0;
  for (const { id } of stale) if (await markOrderClosed(em, id, 'job:membership')) closed++;
  return closed;
}

/** An order the operator makes (the admin CLI grants days this way, so they show in the list). */
export async function createPaidAdminOrder(
  em: EntityManager,
  input: {
    userId: number;
    days: number;
    tier: 'pro' | 'superPro';
    currency: Currency;
    remark: string | null;
    actor: string;
  },
): Promise<Order> {
  return em.transactional(async (tx) => {
    const order = tx.create(Order, {
      id: newOrderId(),
      user: input.userId,
      source: 'admin' satisfies OrderSource,
      productId: 'admin-grant',
      tier: input.tier,
      proDays: input.days,
      amount: 0,
      currency: input.currency,
      description: `Granted by the operator · ${input.days} days`,
      remark: input.remark,
    });
    await tx.flush();
    await markOrderPaid(tx, order.id, input.actor);
    await tx.refresh(order);
    return order;
  });
}
