import { defineEntity, p } from '@mikro-orm/core';
import { clock } from '../../clock.ts';
import { User } from './user.entity.ts';

/** What changed a user's membership, by whom: orders, the operator's CLI, the expiry job. */
export const MEMBERSHIP_ACTIONS = [
  'grant',
  'revoke',
  'orderPaid',
  'orderRefunded',
  'orderClosed',
  'amountMismatch',
  'paidAfterClose',
  'downgraded',
  'reminded',
] as const;
export type MembershipAction = (typeof MEMBERSHIP_ACTIONS)[number];

export const MembershipEventSchema = defineEntity({
  name: 'MembershipEvent',
  tableName: 'membership_event',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    action: p.string().length(24).$type<MembershipAction>(),
    days: p.integer().nullable(),
    orderId: p.string().length(24).nullable(),
    /** 'order:stripe', 'admin:cli', 'job:membership'. */
    actor: p.string().length(64),
    detail: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => clock.now()),
  },
});

export class MembershipEvent extends MembershipEventSchema.class {}
MembershipEventSchema.setClass(MembershipEvent);
