import { DAY_MS } from '../constants.ts';
import { MembershipState, MemberTier } from '../enums.ts';

/**
 * Spec: "above 0 or exactly 4 is pro; 1 is super pro; otherwise free". Level 1 is super pro
 * (it is also above 0, super pro wins); any other positive level, 4 included, is pro.
 */
export function memberTier(level: number | null | undefined): MemberTier {
  if (level === 1) return MemberTier.superPro;
  if (typeof level === 'number' && (level > 0 || level === 4)) return MemberTier.pro;
  return MemberTier.free;
}

/** True for pro and super pro levels (what "Only for PRO user" checks). */
export function isProLevel(level: number | null | undefined): boolean {
  return memberTier(level) !== MemberTier.free;
}

export function isSuperProLevel(level: number | null | undefined): boolean {
  return memberTier(level) === MemberTier.superPro;
}

/**
 * Membership as shown to the user. A paid level whose expiry has passed is expired; so is a
 * free level that carries a past expiry (a lapsed member the server has already downgraded).
 * A paid level without an expiry does not expire.
 */
export function membershipState(
  level: number | null | undefined,
  proExpiresAt: Date | null | undefined,
  now: Date,
): MembershipState {
  const lapsed = proExpiresAt != null && proExpiresAt.getTime() <= now.getTime();
  if (lapsed) return MembershipState.expired;
  return memberTier(level);
}

/** Whole days of PRO left ("%s days left"), rounded up; 0 when expired or unknown. */
export function remainingProDays(expiresAt: Date | null | undefined, now: Date): number {
  if (expiresAt == null) return 0;
  const left = expiresAt.getTime() - now.getTime();
  return Number.isFinite(left) && left > 0 ? Math.ceil(left / DAY_MS) : 0;
}
