import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { Me } from '../../../src/schemas/auth.ts';
import { CurrentPlan } from '../../features/membership/CurrentPlan.tsx';
import { Offer } from '../../features/membership/Offer.tsx';
import { PlanComparison } from '../../features/membership/PlanComparison.tsx';
import { useTRPC } from '../../trpc.ts';
import '../../styles/membership.css';

/**
 * /personSetting/membership: the plan the user has and until when, what this region sells and
 * how it is paid, and what each level gets. With membership off there is nothing to sell.
 */
export function MembershipSettings(_props: { me: Me }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const overview = useQuery(trpc.membership.overview.queryOptions());
  if (overview.isError) return <p className="notice notice-warning">{t('toast.loadingFailed')}</p>;
  if (!overview.data) return <p className="muted">{t('app.loading')}</p>;
  if (!overview.data.membershipOn) {
    return (
      <p className="membership-off" data-testid="membership-off">
        {t('membership.allOpen')}
      </p>
    );
  }
  return (
    <div className="settings-stack membership-page" data-region={overview.data.region}>
      <CurrentPlan overview={overview.data} />
      <Offer overview={overview.data} />
      <PlanComparison overview={overview.data} />
      <p className="membership-orders-link">
        <Link href="/personSetting/paylog">{t('membership.seeOrders')}</Link>
      </p>
    </div>
  );
}
