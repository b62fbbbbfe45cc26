import { defineEntity, p } from '@mikro-orm/core';
import type { MemberTier } from '../../../src/enums.ts';
import type { Checkout, Currency, OrderSource, OrderState } from '../../../src/schemas/membership.ts';
import { clock } from '../../clock.ts';
import { User } from './user.entity.ts';

/** A purchase of PRO days (server/domain/membership/orders.ts). */
export const OrderSchema = defineEntity({
  name: 'Order',
  tableName: 'order',
  properties: {
    id: p.string().length(24).primary(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    state: p.string().length(16).$type<OrderState>().default('created'),
    source: p.string().length(16).$type<OrderSource>(),
    productId: p.string().length(32),
    tier: p.string().length(16).$type<Exclude<MemberTier, 'free'>>(),
    proDays: p.integer(),
    /** In the currency's minor unit (cents, fen). */
    amount: p.integer(),
    currency: p.string().length(3).$type<Currency>(),
    description: p.text(),
    remark: p.text().nullable(),
    /** Where the buyer pays: a checkout page or a QR code's content. */
    checkout: p.json<Checkout>().nullable(),
    /** The provider's id of the payment (Stripe payment intent, WeChat/Alipay transaction). */
    providerRef: p.string().length(128).nullable(),
    createdAt: p.datetime().onCreate(() => clock.now()),
    paidAt: p.datetime().nullable(),
    /** When it was refunded or closed. */
    endedAt: p.datetime().nullable(),
    updatedAt: p
      .datetime()
      .onCreate(() => clock.now())
      .onUpdate(() => clock.now()),
  },
});

export class Order extends OrderSchema.class {}
OrderSchema.setClass(Order);
