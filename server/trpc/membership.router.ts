import { z } from 'zod';
import {
  zCreateOrderInput,
  zMembershipOverview,
  zOrderId,
  zOrderList,
  zOrderListInput,
  zOrderView,
} from '../../src/schemas/membership.ts';
import { createOrder, getOrder, listOrders } from '../domain/membership/orders.ts';
import { membershipOverview } from '../domain/membership/overview.ts';
import { publicOrigin } from '../web/public-origin.ts';
import { protectedProcedure, router } from './init.ts';

/** The membership page and the order list (/personSetting/membership, /personSetting/paylog). */
export const membershipRouter = router({
  overview: protectedProcedure
    .output(zMembershipOverview)
    .query(({ ctx }) => membershipOverview(ctx.config, ctx.user)),

  /** A new order and where to pay it (a checkout page, or a QR code to scan). */
  createOrder: protectedProcedure
    .input(zCreateOrderInput)
    .output(zOrderView)
    .mutation(({ ctx, input }) =>
      createOrder(ctx.em, { ...ctx.config, redis: ctx.redis }, ctx.user, input, {
        origin: publicOrigin(ctx.config, ctx.req),
      }),
    ),

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
