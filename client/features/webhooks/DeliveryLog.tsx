import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { WebhookDeliveryView } from '../../../src/schemas/webhooks.ts';
import { Loaded } from '../../components/QueryState.tsx';
import { useTRPC } from '../../trpc.ts';
import { RelativeTime } from '../sync/RelativeTime.tsx';

const PAGE_SIZE = 10;
/** While a delivery waits, the log is read again this often. */
const WHILE_PENDING_MS = 3000;
/** Reasons of a failed attempt without an answer that have words of their own; others read "no answer". */
const KNOWN_REASONS = new Set([
  'dns',
  'connection',
  'timeout',
  'blocked_address',
  'blocked_port',
  'too_large',
]);

const STATUS_CLASS: Record<WebhookDeliveryView['status'], string> = {
  pending: 'delivery-status-pending',
  delivered: 'status-on',
  failed: 'status-error',
};

/** What the receiver answered last: its HTTP status, or why there was no answer. */
function LastAnswer({ delivery }: { delivery: WebhookDeliveryView }) {
  const { t } = useTranslation();
  if (delivery.lastStatus !== null)
    return <span>{t('webhooks.httpStatus', { status: delivery.lastStatus })}</span>;
  if (delivery.lastError) {
    const reason = KNOWN_REASONS.has(delivery.lastError) ? delivery.lastError : 'other';
    return <span>{t(`webhooks.reason.${reason}`)}</span>;
  }
  return null;
}

function DeliveryRow({ delivery }: { delivery: WebhookDeliveryView }) {
  const { t } = useTranslation();
  return (
    <li className="delivery" data-testid="webhook-delivery" data-status={delivery.status}>
      <code className="delivery-type" dir="ltr">
        {delivery.type}
      </code>
      <span className={`status ${STATUS_CLASS[delivery.status]}`}>
        {t(`webhooks.delivery.${delivery.status}`)}
      </span>
      <span className="delivery-facts">
        <RelativeTime date={delivery.createdAt} />
        {delivery.attempts > 0 && <span>{t('webhooks.attempts', { count: delivery.attempts })}</span>}
        <LastAnswer delivery={delivery} />
      </span>
    </li>
  );
}

/** One endpoint's deliveries, newest first, a page at a time; read again while one waits. */
export function DeliveryLog({ endpointId, id }: { endpointId: string; id: string }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const log = useInfiniteQuery(
    trpc.webhooks.deliveries.infiniteQueryOptions(
      { id: endpointId, limit: PAGE_SIZE },
      {
        getNextPageParam: (last) => last.nextCursor,
        refetchInterval: (query) =>
          query.state.data?.pages.some((page) => page.items.some((d) => d.status === 'pending'))
            ? WHILE_PENDING_MS
            : false,
      },
    ),
  );
  return (
    <div className="delivery-log" id={id} data-testid="webhook-log">
      <div className="delivery-log-head">
        <h3 className="eyebrow">{t('webhooks.logTitle')}</h3>
        <button
          type="button"
          className="link-button"
          disabled={log.isFetching}
          onClick={() => void log.refetch()}
        >
          {t('common.refresh')}
        </button>
      </div>
      <Loaded
        query={log}
        select={(data) => data.pages.flatMap((page) => page.items)}
        empty={<p className="muted">{t('webhooks.logEmpty')}</p>}
      >
        {(deliveries) => (
          <ol className="delivery-list">
            {deliveries.map((delivery) => (
              <DeliveryRow key={delivery.id} delivery={delivery} />
            ))}
          </ol>
        )}
      </Loaded>
      {log.hasNextPage && (
        <div>
          <button
            type="button"
            className="button button-small"
            disabled={log.isFetchingNextPage}
            onClick={() => void log.fetchNextPage()}
          >
            {t('webhooks.olderDeliveries')}
          </button>
        </div>
      )}
    </div>
  );
}
