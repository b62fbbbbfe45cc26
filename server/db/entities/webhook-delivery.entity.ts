import { defineEntity, p } from '@mikro-orm/core';
import type { WebhookDeliveryStatus, WebhookPayload } from '../../../src/schemas/webhooks.ts';
import { clock } from '../../clock.ts';
import { WebhookEndpoint } from './webhook-endpoint.entity.ts';

/**
 * One event for one endpoint: the outbox row written in the transaction of the change it tells
 * about, then the delivery's log (attempts, last answer). An endpoint's pending rows are sent in
 * id order, one at a time.
 */
export const WebhookDeliverySchema = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_delivery',
  indexes: [{ properties: ['endpoint', 'id'] }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    endpoint: () => p.manyToOne(WebhookEndpoint).deleteRule('cascade'),
    /** The event's id: the same for every endpoint the event went to and in every retry. */
    eventId: p.string().length(32),
    eventType: p.string().length(32),
    payload: p.json<WebhookPayload>(),
    status: p.string().length(16).$type<WebhookDeliveryStatus>().default('pending'),
    attempts: p.integer().default(0),
    lastStatus: p.smallint().nullable(),
    lastError: p.string().length(32).nullable(),
    createdAt: p.datetime().onCreate(() => clock.now()),
    lastAttemptAt: p.datetime().nullable(),
    /** When it was delivered or given up; the log keeps finished rows for WEBHOOK_LOG_RETENTION_MS. */
    finishedAt: p.datetime().nullable(),
  },
});

export class WebhookDelivery extends WebhookDeliverySchema.class {}
WebhookDeliverySchema.setClass(WebhookDelivery);
