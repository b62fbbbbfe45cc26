import { createHmac } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DAY_MS, HOUR_MS, SECOND_MS } from '../../../src/constants.ts';
import {
  WEBHOOK_HEADERS,
  WEBHOOK_SIGNATURE_VERSION,
  type WebhookDisabledReason,
  type WebhookPayload,
} from '../../../src/schemas/webhooks.ts';
import { clock } from '../../clock.ts';
import { asDate } from '../../db/row.ts';
import { FetchRefusedError, guardedFetch } from '../../net/guarded-fetch.ts';
import { featureRefusal, type MembershipSettings } from '../membership/gate.ts';

/** A failed delivery is tried again after 30 s, then twice as long each time, at most an hour apart. */
export const WEBHOOK_RETRY_FIRST_MS = 30 * SECOND_MS;
export const WEBHOOK_RETRY_MAX_MS = HOUR_MS;
/** An endpoint whose deliveries have failed for this long is turned off. */
export const WEBHOOK_DISABLE_AFTER_MS = 3 * DAY_MS;

const WEBHOOK_USER_AGENT = 'Margin-Webhooks/1.0 (+https://github.com/margin)';
/** A receiver should answer at once (and do its work later); its answer's body is not read for anything. */
const WEBHOOK_FETCH_LIMITS = {
  timeoutMs: 10 * SECOND_MS,
  idleTimeoutMs: 5 * SECOND_MS,
  maxBytes: 1024 * 1024,
};
const ANY_CONTENT = ['application/*', 'text/*'];

export interface WebhookEnv {
  /** FETCH_ALLOW_TARGETS: the private addresses (tests, intranets) that may be reached. */
  allowedTargets: readonly string[];
  /** Whether the owner's plan has webhooks (checked before every run). */
  membership: MembershipSettings;
}

/** `v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`: what a receiver recomputes to trust a delivery. */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `${WEBHOOK_SIGNATURE_VERSION}=${mac}`;
}

/** The wait before the next try of a delivery that has failed `attempts` times. */
export function retryDelayMs(attempts: number): number {
  return Math.min(
    WEBHOOK_RETRY_FIRST_MS * 2 ** Math.min(Math.max(attempts - 1, 0), 20),
    WEBHOOK_RETRY_MAX_MS,
  );
}

interface Attempt {
  ok: boolean;
  /** The receiver's HTTP status, when it answered one we could read. */
  status: number | null;
  /** Why there was no answer (the guarded fetcher's reason), or null. */
  error: string | null;
}

/** One POST of one delivery, signed now; no redirect is followed (a 3xx is a failure). */
async function post(endpoint: EndpointRow, delivery: DeliveryRow, env: WebhookEnv): Promise<Attempt> {
  const body = JSON.stringify(delivery.payload);
  const timestamp = Math.floor(clock.now().getTime() / 1000);
  try {
    const response = await guardedFetch(endpoint.url, {
      ...WEBHOOK_FETCH_LIMITS,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [WEBHOOK_HEADERS.id]: delivery.event_id,
        [WEBHOOK_HEADERS.timestamp]: String(timestamp),
        [WEBHOOK_HEADERS.signature]: webhookSignature(endpoint.secret, timestamp, body),
      },
      body,
      answerAnyStatus: true,
      allowedContentTypes: ANY_CONTENT,
      allowedTargets: env.allowedTargets,
      userAgent: WEBHOOK_USER_AGENT,
    });
    return { ok: response.status >= 200 && response.status <= 299, status: response.status, error: null };
  } catch (error) {
    if (!(error instanceof FetchRefusedError)) throw error;
    // The fetcher checks the content type only of a 2xx answer: one with an odd type (or none)
    // was received all the same.
    if (error.reason === 'content_type') return { ok: true, status: null, error: null };
    return { ok: false, status: null, error: error.reason };
  }
}

interface EndpointRow {
  id: string;
  url: string;
  secret: string;
  enabled: boolean;
  failing_since: Date | null;
  retry_at: Date | null;
  /** The owner's membership. */
  memberLevel: number;
  proExpiresAt: Date | null;
}

interface DeliveryRow {
  id: string;
  event_id: string;
  payload: WebhookPayload;
}

/** What a run of one endpoint's deliveries ended with. */
export type DeliveryRun =
  | { state: 'done' | 'gone' | 'off' | 'disabled'; delivered: number }
  /** A delivery failed (or the endpoint waits from an earlier failure): run again at `retryAt`. */
  | { state: 'retry'; delivered: number; retryAt: Date };

async function endpointRow(em: EntityManager, id: string): Promise<EndpointRow | undefined> {
  const [row] = await em.execute<
    (EndpointRow & { failing_since: unknown; retry_at: unknown; proExpiresAt: unknown })[]
  >(
    `select e."id", e."url", e."secret", e."enabled", e."failing_since", e."retry_at",
       u."member_level" as "memberLevel", u."pro_expires_at" as "proExpiresAt"
     from "webhook_endpoint" e join "user" u on u."id" = e."user_id" where e."id" = ?`,
    [id],
  );
  return (
    row && {
      ...row,
      failing_since: row.failing_since == null ? null : asDate(row.failing_since),
      retry_at: row.retry_at == null ? null : asDate(row.retry_at),
      proExpiresAt: row.proExpiresAt == null ? null : asDate(row.proExpiresAt),
    }
  );
}

async function nextPending(em: EntityManager, endpointId: string): Promise<DeliveryRow | undefined> {
  const [row] = await em.execute<DeliveryRow[]>(
    `select "id", "event_id", "payload" from "webhook_delivery"
     where "endpoint_id" = ? and "status" = 'pending' order by "id" limit 1`,
    [endpointId],
  );
  return row;
}

async function markDelivered(em: EntityManager, endpointId: string, delivery: DeliveryRow, attempt: Attempt) {
  const now = clock.now();
  await em.transactional(async (tem) => {
    await tem.execute(
      `update "webhook_delivery" set "status" = 'delivered', "attempts" = "attempts" + 1, "last_status" = ?,
         "last_error" = null, "last_attempt_at" = ?, "finished_at" = ? where "id" = ? and "status" = 'pending'`,
      [attempt.status, now, now, delivery.id],
    );
    await tem.execute(
      `update "webhook_endpoint" set "failing_since" = null, "retry_at" = null where "id" = ?`,
      [endpointId],
    );
  });
}

/**
 * A failed attempt: noted on the delivery, and the endpoint waits its backoff, or is turned off
 * (its waiting deliveries given up) once it has failed for WEBHOOK_DISABLE_AFTER_MS.
 */
async function markFailed(
  em: EntityManager,
  endpoint: EndpointRow,
  delivery: DeliveryRow,
  attempt: Attempt,
): Promise<DeliveryRun & { state: 'retry' | 'disabled' }> {
  const now = clock.now();
  return em.transactional(async (tem) => {
    const [{ attempts } = { attempts: 1 }] = await tem.execute<{ attempts: number }[]>(
      `update "webhook_delivery" set "attempts" = "attempts" + 1, "last_status" = ?, "last_error" = ?,
         "last_attempt_at" = ? where "id" = ? returning "attempts"`,
      [attempt.status, attempt.error, now, delivery.id],
    );
    const failingSince = endpoint.failing_since ?? now;
    if (now.getTime() - failingSince.getTime() >= WEBHOOK_DISABLE_AFTER_MS) {
      await disableEndpoint(tem, endpoint.id, 'failing');
      return { state: 'disabled', delivered: 0 };
    }
    const retryAt = new Date(now.getTime() + retryDelayMs(attempts));
    await tem.execute(
      `update "webhook_endpoint" set "failing_since" = coalesce("failing_since", ?), "retry_at" = ? where "id" = ?`,
      [failingSince, retryAt, endpoint.id],
    );
    return { state: 'retry', delivered: 0, retryAt };
  });
}

/**
 * Turns an endpoint off (by the user's hand, or Margin's with a reason) and gives up its waiting
 * deliveries: a disabled endpoint receives nothing, and nothing recorded before is sent later.
 */
export async function disableEndpoint(
  em: EntityManager,
  endpointId: string,
  reason: WebhookDisabledReason | null,
) {
  const now = clock.now();
  await em.execute(
    `update "webhook_endpoint" set "enabled" = false, "disabled_reason" = ?, "disabled_at" = ?, "retry_at" = null,
       "updated_at" = ? where "id" = ? ${reason ? 'and "enabled"' : ''}`,
    [reason, reason ? now : null, now, endpointId],
  );
  await em.execute(
    `update "webhook_delivery" set "status" = 'failed', "finished_at" = ? where "endpoint_id" = ? and "status" = 'pending'`,
    [now, endpointId],
  );
}

/**
 * Sends one endpoint's waiting deliveries one at a time, oldest first, so that the events of a
 * note never overtake each other. The first that fails stops the run: it is tried again after
 * its backoff, and the deliveries behind it wait. Only one run per endpoint goes at a time (its
 * job id is the endpoint's, webhook.processor.ts).
 */
export async function deliverPending(
  em: EntityManager,
  endpointId: string,
  env: WebhookEnv,
): Promise<DeliveryRun> {
  let delivered = 0;
  for (;;) {
    const endpoint = await endpointRow(em, endpointId);
    if (!endpoint) return { state: 'gone', delivered };
    if (!endpoint.enabled) return { state: 'off', delivered };
    if (featureRefusal(env.membership, endpoint, 'webhooks')) {
      // The plan no longer has webhooks: off, with the reason shown, until the user turns it on again.
      await disableEndpoint(em, endpointId, 'membership');
      return { state: 'disabled', delivered };
    }
    if (endpoint.retry_at && endpoint.retry_at > clock.now()) {
      return { state: 'retry', delivered, retryAt: endpoint.retry_at };
    }
    const delivery = await nextPending(em, endpointId);
    if (!delivery) return { state: 'done', delivered };
    const attempt = await post(endpoint, delivery, env);
    if (!attempt.ok) return { ...(await markFailed(em, endpoint, delivery, attempt)), delivered };
    await markDelivered(em, endpointId, delivery, attempt);
    delivered++;
  }
}
