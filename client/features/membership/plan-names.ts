import type { TFunction } from 'i18next';
import type { MembershipOverview, OrderView } from '../../../src/schemas/membership.ts';

export type MembershipState = MembershipOverview['state'];
export type Tier = 'free' | 'pro' | 'superPro';

/** The name of a level or state, as the account page writes it. */
export const PLAN_NAME_KEY: Record<MembershipState, string> = {
  free: 'account.planFree',
  pro: 'account.planPro',
  superPro: 'account.planSuperPro',
  expired: 'account.planExpired',
};

/** The plan a state gets now: a lapsed membership counts as free. */
export function tierOf(state: MembershipState): Tier {
  return state === 'expired' ? 'free' : state;
}

/**
 * What an order bought, in the reader's language ("PRO · 31 days"); the description the server
 * stored is English, for the providers' pages and the operator.
 */
export function orderTitle(order: Pick<OrderView, 'tier' | 'proDays'>, t: TFunction): string {
  return `${t(PLAN_NAME_KEY[order.tier])} · ${t('membership.productDays', { count: order.proDays })}`;
}
