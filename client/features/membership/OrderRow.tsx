import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { OrderState, OrderView } from '../../../src/schemas/membership.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { LocalTime } from '../../components/LocalTime.tsx';
import { formatMoney } from './money.ts';
import { orderTitle } from './plan-names.ts';

const STATE_CLASS: Record<OrderState, string> = {
  created: 'order-state-created',
  paid: 'order-state-paid',
  refunded: 'order-state-refunded',
  closed: 'order-state-closed',
};

export function OrderStateBadge({ state }: { state: OrderState }) {
  const { t } = useTranslation();
  return (
    <span className={`order-state ${STATE_CLASS[state]}`} data-testid="order-state">
      {t(`membership.orderState.${state}`)}
    </span>
  );
}

/**
 * One order with the spec's fields (order id, price, created, PRO days, remark, description), its
 * state, and for an unpaid one, a way back to its payment.
 */
export function OrderRow(props: {
  order: OrderView;
  highlighted: boolean;
  onPay?: (order: OrderView) => void;
}) {
  const { t, i18n } = useTranslation();
  const { order, highlighted, onPay } = props;
  const row = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (highlighted) row.current?.scrollIntoView({ block: 'center' });
  }, [highlighted]);
  return (
    <li
      ref={row}
      className="order"
      data-testid="order"
      data-order={order.id}
      data-state={order.state}
      data-highlighted={highlighted || undefined}
      aria-current={highlighted || undefined}
    >
      <div className="order-head">
        <h3 className="order-description" data-testid="order-description">
          <bdi>{orderTitle(order, t)}</bdi>
        </h3>
        <OrderStateBadge state={order.state} />
      </div>
      <dl className="order-facts">
        <div>
          <dt>{t('membership.orderPrice')}</dt>
          <dd className="order-price" data-testid="order-price">
            {formatMoney(order.amount, order.currency, i18n.language)}
          </dd>
        </div>
        <div>
          <dt>{t('membership.orderDays')}</dt>
          <dd data-testid="order-days">{new Intl.NumberFormat(i18n.language).format(order.proDays)}</dd>
        </div>
        <div>
          <dt>{t('membership.orderCreated')}</dt>
          <dd>
            <LocalTime date={order.createdAt} style="dateTime" testId="order-created" />
          </dd>
        </div>
        <div>
          <dt>{t('membership.orderSource')}</dt>
          <dd>{t(`membership.source.${order.source}`)}</dd>
        </div>
        <div className="order-id">
          <dt>{t('membership.orderId')}</dt>
          <dd>
            <code className="mono" dir="ltr" data-testid="order-id">
              {order.id}
            </code>
            <CopyButton text={order.id} testId="copy-order-id" />
          </dd>
        </div>
        {order.remark && (
          <div className="order-remark">
            <dt>{t('membership.orderRemark')}</dt>
            <dd data-testid="order-remark">
              <bdi>{order.remark}</bdi>
            </dd>
          </div>
        )}
      </dl>
      {order.state === 'created' && order.checkout && onPay && (
        <div>
          <button type="button" className="button button-primary button-small" onClick={() => onPay(order)}>
            {t('membership.payNow')}
          </button>
        </div>
      )}
    </li>
  );
}
