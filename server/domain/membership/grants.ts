import type { EntityManager } from '@mikro-orm/postgresql';
import { MemberLevel } from '../../../src/enums.ts';
import { clock } from '../../clock.ts';
import { MembershipEvent } from '../../db/entities/index.ts';
import type { MembershipAction } from '../../db/entities/membership-event.entity.ts';

export interface MembershipChange {
  userId: number;
  days: number;
  /** Who did it: 'order:stripe', 'admin:cli', … */
  actor: string;
  action: MembershipAction;
  orderId?: string | null;
  detail?: string | null;
}

/** The user's level and expiry after a change, or null when no such user. */
export interface MembershipAfter {
  memberLevel: number;
  proExpiresAt: Date | null;
}

/** A paid level without an expiry does not end (src/rules/member-level.ts): days change nothing. */
const NO_END = `("member_level" > 0 and "pro_expires_at" is null)`;

/**
 * Adds PRO days in one statement, so parallel grants add up. Days start from the current expiry
 * when it is still ahead, else from now. A super pro grant makes the level super pro; a pro grant
 * keeps a running super pro membership super pro (one expiry serves both). A membership without
 * an end is left as it is. Logged with its actor. Run it inside the transaction of what caused
 * it (the paid order).
 */
export async function grantProDays(
  em: EntityManager,
  change: MembershipChange & { tier: 'pro' | 'superPro' },
): Promise<MembershipAfter | null> {
  const now = clock.now();
  const rows: { member_level: number; pro_expires_at: Date | null }[] = await em.execute(
    `update "user" set
       "member_level" = case
         when ${NO_END} then "member_level"
         when ? = 'superPro' then ${MemberLevel.superPro}
         when "member_level" = ${MemberLevel.superPro} and "pro_expires_at" > ? then ${MemberLevel.superPro}
         else ${MemberLevel.pro} end,
       "pro_expires_at" = case
         when ${NO_END} then null
         else greatest(coalesce("pro_expires_at", ?), ?) + make_interval(days => ?) end
     where "id" = ?
     returning "member_level", "pro_expires_at"`,
    [change.tier, now, now, now, change.days, change.userId],
  );
  return logged(em, change, rows);
}

/**
 * Takes PRO days back (a refund, the operator). When the expiry then lies in the past, the level
 * drops to free at once; the state shows "Membership expired" and the data stays.
 */
export async function revokeProDays(
  em: EntityManager,
  change: MembershipChange,
): Promise<MembershipAfter | null> {
  const now = clock.now();
  const rows: { member_level: number; pro_expires_at: Date | null }[] = await em.execute(
    `update "user" u set
       "pro_expires_at" = greatest(u."pro_expires_at" - make_interval(days => ?), ?),
       "member_level" = case when u."pro_expires_at" - make_interval(days => ?) > ? then u."member_level" else ${MemberLevel.free} end
     where u."id" = ? and u."pro_expires_at" is not null
     returning u."member_level", u."pro_expires_at"`,
    [change.days, now, change.days, now, change.userId],
  );
  return logged(em, change, rows);
}

/** Writes one line of the membership log, in the caller's transaction. */
export async function logMembership(
  em: EntityManager,
  entry: Pick<MembershipChange, 'userId' | 'actor' | 'action' | 'orderId' | 'detail'> & {
    days?: number | null;
  },
): Promise<void> {
  em.create(MembershipEvent, {
    user: entry.userId,
    action: entry.action,
    days: entry.days ?? null,
    orderId: entry.orderId ?? null,
    actor: entry.actor,
    detail: entry.detail ?? null,
  });
  await em.flush();
}

async function logged(
  em: EntityManager,
  change: MembershipChange,
  rows: { member_level: number; pro_expires_at: Date | null }[],
): Promise<MembershipAfter | null> {
  const row = rows[0];
  if (!row) return null;
  await logMembership(em, change);
  return {
    memberLevel: row.member_level,
    proExpiresAt: row.pro_expires_at ? new Date(row.pro_expires_at) : null,
  };
}
