import type { TFunction } from 'i18next';
import { type MembershipState, MemberTier } from '../../../src/enums.ts';
import type { OrderView } from '../../../src/schemas/membership.ts';

/** The tiers, in the order the plans compare them. */
export const TIERS: readonly MemberTier[] = Object.values(MemberTier);

/** The name of a level or state, as the account page writes it. */
export const PLAN_NAME_KEY: Record<MembershipState, string> = {
  free: 'account.planFree',
  pro: 'account.planPro',
  superPro: 'account.planSuperPro',
  expired: 'account.planExpired',
};

/** The plan a state gets now: a lapsed membership counts as free. */
export function tierOf(state: MembershipState): MemberTier {
  return state === 'expired' ? 'free' : state;
}

/**
 * What an order bought, in the reader's language ("PRO · 31 days"); the description the server
 * stored is English, for the providers' pages and the operator.
 */
export function orderTitle(order: Pick<OrderView, 'tier' | 'proDays'>, t: TFunction): string {
  return `${t(PLAN_NAME_KEY[order.tier])} · ${t('membership.productDays', { count: order.proDays })}`;
}
