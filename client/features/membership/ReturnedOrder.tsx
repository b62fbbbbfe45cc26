import { useTranslation } from 'react-i18next';
import type { OrderView } from '../../../src/schemas/membership.ts';

const MESSAGE: Record<OrderView['state'], string> = {
  created: 'membership.returnedWaiting',
  paid: 'membership.returnedPaid',
  closed: 'membership.returnedClosed',
  refunded: 'membership.returnedRefunded',
};

/** Back from a provider's page: what became of the order (it is read again while unpaid). */
export function ReturnedOrder({ order }: { order: OrderView }) {
  const { t } = useTranslation();
  return (
    <p className="returned-order" role="status" data-state={order.state} data-testid="returned-order">
      {order.state === 'created' && <span className="pay-pulse" aria-hidden="true" />}
      {t(MESSAGE[order.state], { count: order.proDays })}
    </p>
  );
}
