import { expect } from 'vitest';
import { clock } from '../../server/clock.ts';
import type { AppDeps } from '../../server/deps.ts';
import { findSignedIn } from '../../server/domain/auth/session.service.ts';
import { DAY_MS } from '../../src/constants.ts';
import { MemberLevel } from '../../src/enums.ts';
import { callerFor } from './context.ts';
import { signedInUser } from './users.ts';

/** The four memberships the spec names (section 4), and a PRO level set without an end. */
export type MemberKind = 'free' | 'pro' | 'superPro' | 'expired' | 'proWithoutEnd';

const LEVEL: Record<MemberKind, number> = {
  free: MemberLevel.free,
  pro: MemberLevel.pro,
  superPro: MemberLevel.superPro,
  // The expiry job has run: free again, with the expiry that passed.
  expired: MemberLevel.free,
  proWithoutEnd: MemberLevel.pro,
};

/** When each membership ends, from `now`: never for free and a level without an end. */
function expiryOf(kind: MemberKind, now: number): Date | null {
  if (kind === 'free' || kind === 'proWithoutEnd') return null;
  return new Date(kind === 'expired' ? now - DAY_MS : now + 30 * DAY_MS);
}

/** A signed-in user of that membership: PRO levels for 30 more days, expired since yesterday. */
export async function memberUser(deps: AppDeps, kind: MemberKind) {
  const { token, user } = await signedInUser(deps);
  return becomeMember(deps, { token, user }, kind);
}

/**
 * The signed-in user after their membership changed to `kind`, with a new caller (a caller
 * carries the user row it was made with, so an old one still acts with the old membership).
 */
export async function becomeMember(
  deps: AppDeps,
  signedIn: { token: string; user: { id: number } },
  kind: MemberKind,
) {
  await setMembership(deps, signedIn.user.id, kind);
  const now = await findSignedIn(deps.orm.em.fork(), signedIn.token);
  if (!now) throw new Error('session not found');
  return { ...now, token: signedIn.token, caller: callerFor(deps, now) };
}

/** Sets a user's membership afterwards (a token or connection made while PRO, then lapsed). */
export async function setMembership(deps: AppDeps, userId: number, kind: MemberKind): Promise<void> {
  const expiresAt = expiryOf(kind, clock.now().getTime());
  await deps.orm.em
    .fork()
    .execute(`update "user" set "member_level" = ?, "pro_expires_at" = ? where "id" = ?`, [
      LEVEL[kind],
      expiresAt,
      userId,
    ]);
}

/**
 * Runs `act` and answers the PRO expiry it should leave, `days` from when it ran (the test clock
 * runs on), with what `act` gave.
 */
export async function daysFromNow<T>(days: number, act: () => Promise<T>) {
  const before = clock.now().getTime();
  const value = await act();
  const after = clock.now().getTime();
  return { value, min: before + days * DAY_MS, max: after + days * DAY_MS };
}

export function expectExpiryWithin(expiry: Date | null, range: { min: number; max: number }) {
  expect(expiry).toBeInstanceOf(Date);
  expect(expiry!.getTime()).toBeGreaterThanOrEqual(range.min);
  expect(expiry!.getTime()).toBeLessThanOrEqual(range.max);
}
