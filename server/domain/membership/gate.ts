import { MembershipState } from '../../../src/enums.ts';
import { AppError } from '../../../src/errors.ts';
import { membershipState } from '../../../src/rules/member-level.ts';
import type { Feature, LevelPlan, Quota } from '../../../src/schemas/membership.ts';
import { clock } from '../../clock.ts';
import type { AppConfig } from '../../config.ts';

// The one membership check: tRPC procedures, the Open API and the workers all ask it.

export type MembershipSettings = Pick<AppConfig, 'membership' | 'membershipConfig'>;
export interface Member {
  memberLevel: number;
  proExpiresAt: Date | null | undefined;
}

/** Where the "Only for PRO user" answers send the user. */
export const UPGRADE_PATH = '/personSetting/membership';

/**
 * What a feature use does: `use` changes something or runs the feature; `read` only shows what the
 * user made with it earlier (their tokens, webhooks, deliveries, API reads), which a lapsed member
 * keeps: their data stays readable and exportable after the membership ends.
 */
export type FeatureAccess = 'use' | 'read';

/**
 * The plan row a user gets now. Membership off: the pro row for everyone (every feature). On: by
 * level, a lapsed membership counting as free.
 */
export function planOf(settings: MembershipSettings, user: Member, now = clock.now()): LevelPlan {
  const plans = settings.membershipConfig.plans;
  if (!settings.membership) return plans.pro;
  const state = membershipState(user.memberLevel, user.proExpiresAt, now);
  if (state === MembershipState.superPro) return plans.superPro;
  if (state === MembershipState.pro) return plans.pro;
  return plans.free;
}

function canUse(
  settings: MembershipSettings,
  user: Member,
  feature: Feature,
  access: FeatureAccess = 'use',
  now = clock.now(),
): boolean {
  if (planOf(settings, user, now).features.includes(feature)) return true;
  if (access !== 'read') return false;
  // Reading what one made with a paid feature stays open to a lapsed member.
  return membershipState(user.memberLevel, user.proExpiresAt, now) === MembershipState.expired;
}

/** Why the user may not use the feature now ("Membership expired" or "Only for PRO user"), or null. */
export function featureRefusal(
  settings: MembershipSettings,
  user: Member,
  feature: Feature,
  access: FeatureAccess = 'use',
  now = clock.now(),
): 'errors.onlyForPro' | 'errors.membershipExpired' | null {
  if (canUse(settings, user, feature, access, now)) return null;
  const expired = membershipState(user.memberLevel, user.proExpiresAt, now) === MembershipState.expired;
  return expired ? 'errors.membershipExpired' : 'errors.onlyForPro';
}

/** Throws FORBIDDEN with featureRefusal's message and the upgrade page's path, unless the user may. */
export function requireFeature(
  settings: MembershipSettings,
  user: Member,
  feature: Feature,
  access: FeatureAccess = 'use',
): void {
  const refusal = featureRefusal(settings, user, feature, access);
  if (refusal) throw new AppError('FORBIDDEN', refusal, { feature, upgrade: UPGRADE_PATH });
}

/** A per-level limit (Open API rate, tokens, webhook endpoints) for this user now. */
export function quotaOf(settings: MembershipSettings, user: Member, quota: Quota): number {
  return planOf(settings, user).quotas[quota];
}
