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
const NO_END = `(u."member_level" > 0 and u."pro_expires_at" is null)`;

/** What a change does to memberships; `writeMembership` turns each into one statement. */
export type LevelChange =
  | { kind: 'grant'; userId: number; days: number; tier: 'pro' | 'superPro' }
  | { kind: 'revoke'; userId: number; days: number }
  /** Every paid member whose expiry is at or before `now`. */
  | { kind: 'lapse' };

/** A user's membership as a change left it, with the level it had before. */
export interface WrittenMembership extends MembershipAfter {
  userId: number;
  previousLevel: number;
}

/**
 * The one writer of `member_level` and `pro_expires_at`: every grant, refund, revocation and
 * lapse goes through it, so the rules of what a level becomes live here. Each change is one
 * statement over locked rows, so parallel changes to one member apply one after the other.
 */
export async function writeMembership(
  em: EntityManager,
  change: LevelChange,
  now: Date = clock.now(),
): Promise<WrittenMembership[]> {
  const { set, where, params } = statement(change, now);
  const rows: {
    id: string | number;
    previous_level: number;
    member_level: number;
    pro_expires_at: Date | null;
  }[] = await em.execute(
    `update "user" u set ${set}
     from (select "id", "member_level" from "user" where ${where} for update) prior
     where u."id" = prior."id"
     returning u."id", prior."member_level" as previous_level, u."member_level", u."pro_expires_at"`,
    params,
  );
  return rows.map((row) => ({
    userId: Number(row.id),
    previousLevel: row.previous_level,
    memberLevel: row.member_level,
    proExpiresAt: row.pro_expires_at ? new Date(row.pro_expires_at) : null,
  }));
}

function statement(change: LevelChange, now: Date): { set: string; where: string; params: unknown[] } {
  switch (change.kind) {
    // Days start from the current expiry when it is still ahead, else from now. A super pro grant
    // makes the level super pro; a pro grant keeps a running super pro membership super pro (one
    // expiry serves both). A membership without an end is left as it is.
    case 'grant':
      return {
        set: `"member_level" = case
                when ${NO_END} then u."member_level"
                when ? = 'superPro' then ${MemberLevel.superPro}
                when u."member_level" = ${MemberLevel.superPro} and u."pro_expires_at" > ? then ${MemberLevel.superPro}
                else ${MemberLevel.pro} end,
              "pro_expires_at" = case
                when ${NO_END} then null
                else greatest(coalesce(u."pro_expires_at", ?), ?) + make_interval(days => ?) end`,
        where: `"id" = ?`,
        params: [change.tier, now, now, now, change.days, change.userId],
      };
    // When the expiry then lies in the past, the level drops to free at once.
    case 'revoke':
      return {
        set: `"pro_expires_at" = greatest(u."pro_expires_at" - make_interval(days => ?), ?),
              "member_level" = case when u."pro_expires_at" - make_interval(days => ?) > ? then u."member_level" else ${MemberLevel.free} end`,
        where: `"id" = ? and "pro_expires_at" is not null`,
        params: [change.days, now, change.days, now, change.userId],
      };
    // The expiry stays, so a lapsed member is shown "Membership expired".
    case 'lapse':
      return {
        set: `"member_level" = ${MemberLevel.free}`,
        where: `"member_level" <> ${MemberLevel.free} and "pro_expires_at" <= ?`,
        params: [now],
      };
  }
}

/**
 * Adds PRO days (see `writeMembership` for what the level becomes), so parallel grants add up.
 * Logged with its actor. Run it inside the transaction of what caused it (the paid order).
 */
export async function grantProDays(
  em: EntityManager,
  change: MembershipChange & { tier: 'pro' | 'superPro' },
): Promise<MembershipAfter | null> {
  const written = await writeMembership(em, {
    kind: 'grant',
    userId: change.userId,
    days: change.days,
    tier: change.tier,
  });
  return logged(em, change, written);
}

/**
 * Takes PRO days back (a refund, the operator). When the expiry then lies in the past, the level
 * drops to free at once; the state shows "Membership expired" and the data stays.
 */
export async function revokeProDays(
  em: EntityManager,
  change: MembershipChange,
): Promise<MembershipAfter | null> {
  const written = await writeMembership(em, { kind: 'revoke', userId: change.userId, days: change.days });
  return logged(em, change, written);
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
  written: WrittenMembership[],
): Promise<MembershipAfter | null> {
  const row = written[0];
  if (!row) return null;
  await logMembership(em, change);
  return { memberLevel: row.memberLevel, proExpiresAt: row.proExpiresAt };
}
