import type { Me } from '../../../src/schemas/auth.ts';
import { useSystemInfo } from '../../lib/use-system-info.ts';

/** The server's membership switch: whether plans exist at all, and how often a PRO tip may show. */
export function useMembershipSwitch(): { on: boolean; proTipsPerDay: number } | undefined {
  const { data } = useSystemInfo();
  return data && { on: data.membershipOn, proTipsPerDay: data.proTipsPerDay };
}

/** Whether PRO-only features are open to this user now. */
export function hasPro(membership: Me['membership']): boolean {
  return membership === 'pro' || membership === 'superPro';
}
