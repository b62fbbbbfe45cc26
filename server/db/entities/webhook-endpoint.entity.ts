import { defineEntity, p } from '@mikro-orm/core';
import type { WebhookDisabledReason, WebhookEvent } from '../../../src/schemas/webhooks.ts';
import { clock } from '../../clock.ts';
import { User } from './user.entity.ts';

/** A URL a user registered to receive events (server/domain/webhooks). */
export const WebhookEndpointSchema = defineEntity({
  name: 'WebhookEndpoint',
  tableName: 'webhook_endpoint',
  indexes: [{ properties: ['user', 'createdAt'] }],
  properties: {
    id: p.string().length(32).primary(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    url: p.text(),
    events: p.array().columnType('text[]').$type<WebhookEvent[]>(),
    /**
     * The signing secret, kept as issued: unlike a token, which is only ever compared (so only its
     * hash is kept), every delivery is signed with it (HMAC), so Margin must be able to read it.
     * It never leaves the server after being shown once.
     */
    secret: p.string().length(64),
    enabled: p.boolean().default(true),
    /** Why Margin turned it off ('failing', 'membership'), and when; null when on, or off by the user's hand. */
    disabledReason: p.string().length(16).$type<WebhookDisabledReason>().nullable(),
    disabledAt: p.datetime().nullable(),
    /** The first failure of the current run of failures; cleared by a delivery that succeeds. */
    failingSince: p.datetime().nullable(),
    /** When the delivery that failed is tried again; later deliveries wait behind it. */
    retryAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => clock.now()),
    updatedAt: p
      .datetime()
      .onCreate(() => clock.now())
      .onUpdate(() => clock.now()),
  },
});

export class WebhookEndpoint extends WebhookEndpointSchema.class {}
WebhookEndpointSchema.setClass(WebhookEndpoint);
