import { type RunningWorkers, startWorkers } from '../../jobs/workers.ts';
import { clock, setClock } from '../../server/clock.ts';
import { findJob } from '../../server/queue.ts';
import type { WebhookEvent } from '../../src/schemas/webhooks.ts';
import { createTestDeps, type TestDeps } from './deps.ts';
import { readerWithNote } from './push-setup.ts';
import { waitFor } from './wait.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';

// What the webhook delivery tests share: real PostgreSQL, Redis and workers, and a receiver on
// loopback that the operator's FETCH_ALLOW_TARGETS lets the guarded fetcher reach.

export interface WebhookTestEnv {
  deps: TestDeps;
  receiver: WebhookReceiver;
  workers: RunningWorkers;
  close(): Promise<void>;
}

export async function startWebhookTestEnv(): Promise<WebhookTestEnv> {
  const receiver = await startWebhookReceiver();
  const deps = await createTestDeps({ FETCH_ALLOW_TARGETS: receiver.target });
  const workers = await startWorkers(deps);
  return {
    deps,
    receiver,
    workers,
    async close() {
      await workers.close();
      await deps.close();
      await receiver.close();
    },
  };
}

/** A reader with a note of `text` and an endpoint on the receiver for `events`, with its secret. */
export async function subscriber(env: WebhookTestEnv, text: string, events: WebhookEvent[]) {
  const { reader, note } = await readerWithNote(env.deps, 'A note with hooks', text);
  const url = env.receiver.newUrl();
  const { secret, endpoint } = await reader.caller.webhooks.create({ url, events });
  return { reader, note, url, secret, endpoint };
}

type Reader = Awaited<ReturnType<typeof subscriber>>['reader'];

/** The endpoint's delivery log, oldest first. */
export async function deliveryLog(reader: Reader, endpointId: string) {
  const page = await reader.caller.webhooks.deliveries({ id: endpointId, limit: 50 });
  return page.items.toReversed();
}

/** The endpoint's delivery job's state, or 'none'. */
async function jobState(deps: TestDeps, endpointId: string): Promise<string> {
  const job = await findJob(deps.queues, 'webhookDeliver', { endpointId });
  return job ? await job.getState() : 'none';
}

/**
 * Waits until the oldest waiting delivery has failed `attempts` times and the endpoint's job is
 * delayed until its retry, and answers the endpoint and that delivery.
 */
export function retryWaiting(env: WebhookTestEnv, reader: Reader, endpointId: string, attempts: number) {
  return waitFor(
    async () => {
      const head = (await deliveryLog(reader, endpointId)).find((d) => d.status === 'pending');
      if (head?.attempts !== attempts || (await jobState(env.deps, endpointId)) !== 'delayed')
        return undefined;
      const endpoint = (await reader.caller.webhooks.list()).find((e) => e.id === endpointId);
      return endpoint?.retryAt ? { endpoint: { ...endpoint, retryAt: endpoint.retryAt }, head } : undefined;
    },
    20_000,
    `attempt ${attempts} to fail and its retry to wait`,
  );
}

/** Moves the app's clock on by `ms`. */
export function advanceClock(ms: number): void {
  setClock(new Date(clock.now().getTime() + ms));
}

/** Moves the app's clock on by `ms` and starts the endpoint's delayed job now (its real delay is the backoff). */
export async function retryAfter(env: WebhookTestEnv, endpointId: string, ms: number): Promise<void> {
  advanceClock(ms);
  const job = await findJob(env.deps.queues, 'webhookDeliver', { endpointId });
  if (!job) throw new Error(`no delivery job for ${endpointId}`);
  await job.promote();
}
