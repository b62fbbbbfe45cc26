import type { EntityManager, QueryResult } from '@mikro-orm/postgresql';
import { DAY_MS } from '../../../src/constants.ts';
import { clock } from '../../clock.ts';
import { asDate } from '../../db/row.ts';
import { log } from '../../log.ts';
import { enqueue, findJob, type Queues } from '../../queue.ts';

/** The endpoints with deliveries waiting, and when each may be tried (null: now). */
const WAITING_ENDPOINTS = `select e."id", e."retry_at" from "webhook_endpoint" e
  where e."enabled" and exists (
    select 1 from "webhook_delivery" d where d."endpoint_id" = e."id" and d."status" = 'pending')`;

interface Waiting {
  id: string;
  retry_at: Date | string | null;
}

/**
 * Queues the delivery job of one endpoint, delayed until its retry time. While one is queued or
 * delayed, this adds nothing (the job id is the endpoint's); while one runs, one more follows it.
 */
async function queueEndpoint(queues: Queues, endpoint: Waiting): Promise<void> {
  const delay = endpoint.retry_at
    ? Math.max(0, asDate(endpoint.retry_at).getTime() - clock.now().getTime())
    : 0;
  await enqueue(queues, 'webhookDeliver', { endpointId: endpoint.id }, { delay });
}

/**
 * After a change committed: queues delivery for each of the user's endpoints with deliveries
 * waiting. The unit of work of a change (server/domain/changes.ts) calls it, whichever front
 * made the change. The events are saved and the sweep sends them anyway, so a queue that cannot
 * be reached is logged, never reported as the change failing.
 */
export async function queueWebhookDeliveries(
  em: EntityManager,
  deps: { queues: Queues },
  userId: number,
): Promise<void> {
  try {
    const rows = await em.execute<Waiting[]>(`${WAITING_ENDPOINTS} and e."user_id" = ?`, [userId]);
    for (const row of rows) await queueEndpoint(deps.queues, row);
  } catch (error) {
    log.warn('webhook delivery not queued', { userId, error: (error as Error).message });
  }
}

/** Delivered and given-up deliveries stay in the endpoint's log this long. */
export const WEBHOOK_LOG_RETENTION_MS = 30 * DAY_MS;

/**
 * The scheduled safety net: every endpoint with deliveries waiting has its job queued (a change
 * whose queueing failed, a job lost with its Redis), and the log drops finished rows past
 * WEBHOOK_LOG_RETENTION_MS.
 */
export async function sweepWebhooks(
  em: EntityManager,
  queues: Queues,
): Promise<{ queued: number; purged: number }> {
  const rows = await em.execute<Waiting[]>(WAITING_ENDPOINTS);
  for (const row of rows) await queueEndpoint(queues, row);
  const cutoff = new Date(clock.now().getTime() - WEBHOOK_LOG_RETENTION_MS);
  const purged = await em.execute<QueryResult>(
    'delete from "webhook_delivery" where "finished_at" < ?',
    [cutoff],
    'run',
  );
  return { queued: rows.length, purged: purged.affectedRows };
}

/** Queues one endpoint's delivery now: a job waiting for a retry time is started at once. */
export async function deliverNow(queues: Queues, endpointId: string): Promise<void> {
  const job = await findJob(queues, 'webhookDeliver', { endpointId });
  if (job && (await job.isDelayed())) {
    try {
      return await job.promote();
    } catch {
      // It started meanwhile: queued below, it follows the running one.
    }
  }
  await enqueue(queues, 'webhookDeliver', { endpointId });
}
