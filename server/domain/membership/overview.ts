import { membershipState } from '../../../src/rules/member-level.ts';
import type { MembershipOverview } from '../../../src/schemas/membership.ts';
import { clock } from '../../clock.ts';
import { type Member, type MembershipSettings, planOf } from './gate.ts';
import { type OfferSettings, regionOffer } from './orders.ts';

/** The membership page: the member's plan now, every plan's features and quotas, and what the region sells. */
export function membershipOverview(
  settings: MembershipSettings & OfferSettings,
  member: Member,
): MembershipOverview {
  const plans = settings.membershipConfig.plans;
  return {
    membershipOn: settings.membership,
    region: settings.region,
    state: membershipState(member.memberLevel, member.proExpiresAt, clock.now()),
    proExpiresAt: member.proExpiresAt ?? null,
    ...regionOffer(settings, member),
    features: { free: plans.free.features, pro: plans.pro.features, superPro: plans.superPro.features },
    quotas: { free: plans.free.quotas, pro: plans.pro.quotas, superPro: plans.superPro.quotas },
    myQuotas: planOf(settings, member).quotas,
  };
}
