import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import type { Me } from '../../../src/schemas/auth.ts';
import { ORDER_ID_PATTERN } from '../../../src/schemas/membership.ts';
import { OrderList } from '../../features/membership/OrderList.tsx';
import { ReturnedOrder } from '../../features/membership/ReturnedOrder.tsx';
import { useMembershipSwitch } from '../../features/membership/use-membership-on.ts';
import { useOrderWatch } from '../../features/membership/use-order-watch.ts';
import '../../styles/membership.css';

/** The order the address names (`?order=`, where a provider's page sends the buyer back), if valid. */
function orderIdIn(search: string): string | null {
  const id = new URLSearchParams(search).get('order');
  return id && ORDER_ID_PATTERN.test(id) ? id : null;
}

/** /personSetting/paylog: the order list; an order coming back from its payment page is followed. */
export function PaylogSettings(_props: { me: Me }) {
  const { t } = useTranslation();
  const membership = useMembershipSwitch();
  const watched = useOrderWatch(orderIdIn(useSearch()));
  if (!membership) return <p className="muted">{t('app.loading')}</p>;
  return (
    <div className="settings-stack paylog-page">
      {watched.data && <ReturnedOrder order={watched.data} />}
      <OrderList watched={watched.data ?? null} membershipOn={membership.on} />
    </div>
  );
}
