import { z } from 'zod';
import { AppError } from '../../src/errors.ts';
import { membershipState } from '../../src/rules/member-level.ts';
import {
  zCreateOrderInput,
  zMembershipOverview,
  zOrderId,
  zOrderList,
  zOrderListInput,
  zOrderView,
} from '../../src/schemas/membership.ts';
import { clock } from '../clock.ts';
import { planOf } from '../domain/membership/gate.ts';
import { createOrder, getOrder, listOrders, regionOffer } from '../domain/membership/orders.ts';
import { publicOrigin } from '../http/public-origin.ts';
import { protectedProcedure, router } from './init.ts';

/** The membership page and the order list (/personSetting/membership, /personSetting/paylog). */
export const membershipRouter = router({
  overview: protectedProcedure.output(zMembershipOverview).query(({ ctx }) => {
    const plans = ctx.config.membershipConfig.plans;
    return {
      membershipOn: ctx.config.membership,
      region: ctx.config.region,
      state: membershipState(ctx.user.memberLevel, ctx.user.proExpiresAt, clock.now()),
      proExpiresAt: ctx.user.proExpiresAt ?? null,
      ...regionOffer(ctx.config, ctx.user),
      features: { free: plans.free.features, pro: plans.pro.features, superPro: plans.superPro.features },
      quotas: { free: plans.free.quotas, pro: plans.pro.quotas, superPro: plans.superPro.quotas },
      myQuotas: planOf(ctx.config, ctx.user).quotas,
    };
  }),

  /** A new order and where to pay it (a checkout page, or a QR code to scan). */
  createOrder: protectedProcedure
    .input(zCreateOrderInput)
    .output(zOrderView)
    .mutation(({ ctx, input }) => {
      if (!ctx.config.membership) throw new AppError('BAD_REQUEST', 'errors.membershipOff');
      return createOrder(ctx.em, { ...ctx.config, redis: ctx.redis }, ctx.user, input, {
        origin: publicOrigin(ctx.config, ctx.req),
      });
    }),

  /** One order (the page polls it while the buyer pays). */
  order: protectedProcedure
    .input(z.object({ id: zOrderId }))
    .output(zOrderView)
    .query(({ ctx, input }) => getOrder(ctx.em, ctx.user, input.id)),

  orders: protectedProcedure
    .input(zOrderListInput)
    .output(zOrderList)
    .query(({ ctx, input }) => listOrders(ctx.em, ctx.user, input)),
});
