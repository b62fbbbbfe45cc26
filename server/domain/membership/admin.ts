import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../../src/errors.ts';
import { zEmail } from '../../../src/schemas/auth.ts';
import type { Currency, OrderView } from '../../../src/schemas/membership.ts';
import { Order, User } from '../../db/entities/index.ts';
import { logMembership, type MembershipAfter, revokeProDays } from './grants.ts';
import { createPaidAdminOrder, markOrderRefunded, orderView } from './orders.ts';

// The operator's membership actions (`npm run admin`). Each is logged in membership_event with
// the operator as its actor.

/** A user named by email or public account id. */
async function findUserByHandle(em: EntityManager, handle: string): Promise<User> {
  // An email as sign-in reads it (trimmed, lower-cased); anything else is an account id.
  const email = zEmail.safeParse(handle);
  const user = await em.findOne(User, email.success ? { email: email.data } : { accountId: handle });
  if (!user) throw new AppError('NOT_FOUND', 'errors.notFound');
  return user;
}

/** Grants PRO days as a paid order of the operator's, so they show in the user's order list. */
export async function adminGrant(
  em: EntityManager,
  input: {
    handle: string;
    days: number;
    tier: 'pro' | 'superPro';
    currency: Currency;
    remark: string | null;
    actor: string;
  },
): Promise<{ order: OrderView; user: User }> {
  const user = await findUserByHandle(em, input.handle);
  const order = await createPaidAdminOrder(em, { ...input, userId: user.id });
  return { order: orderView(order), user: await em.fork().findOneOrFail(User, user.id) };
}

/** Takes PRO days back; at or past now, the user is free with "Membership expired". */
export async function adminRevoke(
  em: EntityManager,
  input: { handle: string; days: number; remark: string | null; actor: string },
): Promise<MembershipAfter | null> {
  const user = await findUserByHandle(em, input.handle);
  return em.transactional(async (tx) => {
    const after = await revokeProDays(tx, {
      userId: user.id,
      days: input.days,
      actor: input.actor,
      action: 'revoke',
      detail: input.remark,
    });
    if (!after)
      await logMembership(tx, {
        userId: user.id,
        actor: input.actor,
        action: 'revoke',
        days: 0,
        detail: 'no PRO time to revoke',
      });
    return after;
  });
}

export async function adminOrders(em: EntityManager, handle: string): Promise<OrderView[]> {
  const user = await findUserByHandle(em, handle);
  const orders = await em.find(Order, { user: user.id }, { orderBy: { createdAt: 'desc', id: 'desc' } });
  return orders.map(orderView);
}

/** Marks an order refunded (the money went back through the provider's dashboard) and takes its days back. */
export async function adminRefund(
  em: EntityManager,
  input: { orderId: string; remark: string | null; actor: string },
): Promise<boolean> {
  if (!(await em.findOne(Order, { id: input.orderId }))) throw new AppError('NOT_FOUND', 'errors.notFound');
  return markOrderRefunded(em, input.orderId, input.actor, input.remark);
}
