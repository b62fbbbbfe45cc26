import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { OrderView } from '../../../src/schemas/membership.ts';
import { Loaded } from '../../components/QueryState.tsx';
import { useTRPC } from '../../trpc.ts';
import { OrderRow } from './OrderRow.tsx';
import { usePayment } from './use-payment.tsx';

export const ORDER_PAGE_SIZE = 20;

/**
 * The user's orders, newest first, a page at a time. `watched` is the order named in the address
 * (back from a provider's page), read fresher than the list, and marked.
 */
export function OrderList({ watched, membershipOn }: { watched: OrderView | null; membershipOn: boolean }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const payment = usePayment();
  const orders = useInfiniteQuery(
    trpc.membership.orders.infiniteQueryOptions(
      { limit: ORDER_PAGE_SIZE },
      { getNextPageParam: (last) => last.nextCursor },
    ),
  );
  return (
    <Loaded
      query={orders}
      select={(data) => data.pages.flatMap((page) => page.items)}
      empty={
        membershipOn ? (
          <div className="empty-state orders-empty" data-testid="orders-empty">
            <h2>{t('membership.ordersEmptyTitle')}</h2>
            <p>{t('membership.ordersEmptyBody')}</p>
            <Link href="/personSetting/membership" className="button button-primary">
              {t('membership.seePlans')}
            </Link>
          </div>
        ) : (
          <p className="membership-off" data-testid="orders-empty">
            {t('membership.ordersNone')}
          </p>
        )
      }
    >
      {(items) => (
        <>
          <ol className="orders" data-testid="orders">
            {items.map((order) => {
              const mine = order.id === watched?.id;
              return (
                <OrderRow
                  key={order.id}
                  order={mine ? watched : order}
                  highlighted={mine}
                  onPay={membershipOn ? payment.resume : undefined}
                />
              );
            })}
          </ol>
          {orders.hasNextPage && (
            <div className="orders-more">
              <button
                type="button"
                className="button"
                disabled={orders.isFetchingNextPage}
                onClick={() => void orders.fetchNextPage()}
              >
                {orders.isFetchingNextPage ? t('app.loading') : t('membership.loadMore')}
              </button>
            </div>
          )}
          {payment.dialog}
        </>
      )}
    </Loaded>
  );
}
