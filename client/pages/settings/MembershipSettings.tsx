import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { Me } from '../../../src/schemas/auth.ts';
import { Loaded } from '../../components/QueryState.tsx';
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
  return (
    <Loaded query={overview}>
      {(data) =>
        data.membershipOn ? (
          <div className="settings-stack membership-page" data-region={data.region}>
            <CurrentPlan overview={data} />
            {/* A membership without an end has nothing to buy. */}
            {data.products.length > 0 && <Offer overview={data} />}
            <PlanComparison overview={data} />
            <p className="membership-orders-link">
              <Link href="/personSetting/paylog">{t('membership.seeOrders')}</Link>
            </p>
          </div>
        ) : (
          <p className="membership-off" data-testid="membership-off">
            {t('membership.allOpen')}
          </p>
        )
      }
    </Loaded>
  );
}
