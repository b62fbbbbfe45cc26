import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../../src/errors.ts';
import { newId } from '../../../src/rules/id.ts';
import {
  type CreateWebhookInput,
  type UpdateWebhookInput,
  WEBHOOK_SECRET_PREFIX,
  type WebhookDeliveriesInput,
  type WebhookDeliveryView,
  type WebhookEndpointView,
} from '../../../src/schemas/webhooks.ts';
import { clock } from '../../clock.ts';
import { type User, WebhookEndpoint } from '../../db/entities/index.ts';
import { asDate } from '../../db/row.ts';
import { staticTargetCheck } from '../../net/guarded-fetch.ts';
import { classifyAddress, literalAddress } from '../../net/ip-policy.ts';
import type { Queues } from '../../queue.ts';
import { type MembershipSettings, quotaOf, requireFeature } from '../membership/gate.ts';
import { disableEndpoint } from './deliver.ts';
import { recordPing } from './events.ts';
import { deliverNow } from './queue.ts';

/** What the endpoint services need besides the database. */
export interface WebhookServiceDeps {
  queues: Queues;
  /** FETCH_ALLOW_TARGETS: `host:port` pairs that may be called over plain http or on a private address. */
  allowedTargets: readonly string[];
  /** Whether webhooks are in the user's plan, and how many endpoints it allows. */
  membership: MembershipSettings;
}

/** Characters of the secret's random part shown in the list (`whsec_ab12…`). */
const SECRET_HINT_LENGTH = 4;

function newSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(24).toString('base64url')}`;
}

function view(endpoint: WebhookEndpoint): WebhookEndpointView {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    enabled: endpoint.enabled,
    disabledReason: endpoint.disabledReason ?? null,
    disabledAt: endpoint.disabledAt ?? null,
    failingSince: endpoint.failingSince ?? null,
    retryAt: endpoint.retryAt ?? null,
    secretHint: endpoint.secret.slice(0, WEBHOOK_SECRET_PREFIX.length + SECRET_HINT_LENGTH),
    createdAt: endpoint.createdAt,
  };
}

/**
 * The address deliveries go to: https (plain http only to a target the operator allowed), no
 * credentials in it, not a port the fetcher refuses, and not a private or local address written out (a name that resolves to
 * one is refused by the guarded fetcher at every delivery).
 */
function checkedUrl(text: string, allowedTargets: readonly string[]): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AppError('BAD_REQUEST', 'errors.webhookUrlInvalid');
  }
  // The scheme first: an address of another scheme (javascript:, file:) may have no host to check.
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new AppError('BAD_REQUEST', 'errors.webhookUrlNotHttps');
  }
  if (url.username || url.password) throw new AppError('BAD_REQUEST', 'errors.webhookUrlInvalid');
  const { allowed, blockedPort } = staticTargetCheck(url, allowedTargets);
  if (url.protocol === 'http:' && !allowed) throw new AppError('BAD_REQUEST', 'errors.webhookUrlNotHttps');
  if (blockedPort) throw new AppError('BAD_REQUEST', 'errors.webhookUrlInvalid');
  const literal = literalAddress(url.hostname);
  const local = url.hostname === 'localhost' || url.hostname.endsWith('.localhost');
  if (!allowed && (local || (literal && classifyAddress(literal) !== 'public'))) {
    throw new AppError('BAD_REQUEST', 'errors.webhookUrlPrivate');
  }
  url.hash = '';
  return url.href;
}

async function ownEndpoint(em: EntityManager, user: User, id: string): Promise<WebhookEndpoint> {
  const endpoint = await em.findOne(WebhookEndpoint, { id, user: user.id });
  if (!endpoint) throw new AppError('NOT_FOUND');
  return endpoint;
}

/** The user's endpoints, oldest first. */
export async function listWebhooks(em: EntityManager, user: User): Promise<WebhookEndpointView[]> {
  const endpoints = await em.find(
    WebhookEndpoint,
    { user: user.id },
    { orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  return endpoints.map(view);
}

/**
 * A new endpoint with a new signing secret, returned this once. A user holds at most their
 * plan's `webhookEndpoints`: creates for one user take turns on the user's row,
 * so parallel ones cannot all pass the count.
 */
export async function createWebhook(
  em: EntityManager,
  deps: Pick<WebhookServiceDeps, 'allowedTargets' | 'membership'>,
  user: User,
  input: CreateWebhookInput,
): Promise<{ secret: string; endpoint: WebhookEndpointView }> {
  requireFeature(deps.membership, user, 'webhooks');
  const max = quotaOf(deps.membership, user, 'webhookEndpoints');
  const url = checkedUrl(input.url, deps.allowedTargets);
  return em.transactional(async (tx) => {
    await tx.execute('select 1 from "user" where "id" = ? for no key update', [user.id]);
    if ((await tx.count(WebhookEndpoint, { user: user.id })) >= max) {
      throw new AppError('CONFLICT', 'errors.webhookLimit', { max });
    }
    const secret = newSecret();
    const endpoint = tx.create(WebhookEndpoint, {
      id: newId(),
      user: user.id,
      url,
      events: input.events,
      secret,
      enabled: true,
    });
    await tx.flush();
    return { secret, endpoint: view(endpoint) };
  });
}

/**
 * Changes an endpoint's address, events or switch. Turning it off gives up its waiting
 * deliveries; turning it on (or giving it a new address) starts afresh, without the backoff of
 * earlier failures, and sends anything waiting at once.
 */
export async function updateWebhook(
  em: EntityManager,
  deps: WebhookServiceDeps,
  user: User,
  input: UpdateWebhookInput,
): Promise<WebhookEndpointView> {
  // Only turning an endpoint off stays open to a lapsed member; any other change uses the feature.
  const onlyTurningOff = input.enabled === false && input.url === undefined && input.events === undefined;
  if (!onlyTurningOff) requireFeature(deps.membership, user, 'webhooks');
  const endpoint = await ownEndpoint(em, user, input.id);
  const url = input.url === undefined ? endpoint.url : checkedUrl(input.url, deps.allowedTargets);
  const turnedOn = input.enabled === true && !endpoint.enabled;
  const turnedOff = input.enabled === false && endpoint.enabled;
  const freshStart = turnedOn || (url !== endpoint.url && endpoint.enabled && !turnedOff);
  await em.transactional(async (tx) => {
    if (turnedOff) await disableEndpoint(tx, endpoint.id, null);
    await tx.nativeUpdate(
      WebhookEndpoint,
      { id: endpoint.id },
      {
        url,
        ...(input.events && { events: input.events }),
        ...(freshStart && {
          enabled: true,
          disabledReason: null,
          disabledAt: null,
          failingSince: null,
          retryAt: null,
        }),
        updatedAt: clock.now(),
      },
    );
  });
  if (freshStart) await deliverNow(deps.queues, endpoint.id);
  await em.refresh(endpoint);
  return view(endpoint);
}

export async function removeWebhook(em: EntityManager, user: User, id: string): Promise<void> {
  const removed = await em.nativeDelete(WebhookEndpoint, { id, user: user.id });
  if (!removed) throw new AppError('NOT_FOUND');
}

/** A new signing secret, returned this once; the old one signs nothing from now on. */
export async function rollWebhookSecret(
  em: EntityManager,
  user: User,
  id: string,
): Promise<{ secret: string; endpoint: WebhookEndpointView }> {
  const endpoint = await ownEndpoint(em, user, id);
  const secret = newSecret();
  endpoint.secret = secret;
  await em.flush();
  return { secret, endpoint: view(endpoint) };
}

/**
 * "Send test event": a ping to this endpoint alone, sent now (after anything already waiting,
 * whose backoff it cuts short). A disabled endpoint must be turned on first.
 */
export async function sendWebhookTest(
  em: EntityManager,
  deps: Pick<WebhookServiceDeps, 'queues' | 'membership'>,
  user: User,
  id: string,
): Promise<void> {
  requireFeature(deps.membership, user, 'webhooks');
  const endpoint = await ownEndpoint(em, user, id);
  if (!endpoint.enabled) throw new AppError('BAD_REQUEST', 'errors.webhookDisabled');
  await em.transactional(async (tx) => {
    await recordPing(tx, endpoint.id);
    await tx.nativeUpdate(WebhookEndpoint, { id: endpoint.id }, { retryAt: null });
  });
  await deliverNow(deps.queues, endpoint.id);
}

interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: string;
  status: WebhookDeliveryView['status'];
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  created_at: unknown;
  last_attempt_at: unknown;
  finished_at: unknown;
}

const dateOrNull = (value: unknown) => (value == null ? null : asDate(value));

/** One endpoint's delivery log, newest first, a page at a time. */
export async function listWebhookDeliveries(
  em: EntityManager,
  user: User,
  input: WebhookDeliveriesInput,
): Promise<{ items: WebhookDeliveryView[]; nextCursor: string | null }> {
  await ownEndpoint(em, user, input.id);
  const rows = await em.execute<DeliveryRow[]>(
    `select "id", "event_id", "event_type", "status", "attempts", "last_status", "last_error", "created_at",
       "last_attempt_at", "finished_at"
     from "webhook_delivery" where "endpoint_id" = ? ${input.cursor ? 'and "id" < ?' : ''}
     order by "id" desc limit ?`,
    [input.id, ...(input.cursor ? [input.cursor] : []), input.limit + 1],
  );
  const items = rows.slice(0, input.limit).map((row) => ({
    id: String(row.id),
    eventId: row.event_id,
    type: row.event_type,
    status: row.status,
    attempts: row.attempts,
    lastStatus: row.last_status,
    lastError: row.last_error,
    createdAt: asDate(row.created_at),
    lastAttemptAt: dateOrNull(row.last_attempt_at),
    finishedAt: dateOrNull(row.finished_at),
  }));
  return { items, nextCursor: rows.length > input.limit ? (items.at(-1)?.id ?? null) : null };
}
