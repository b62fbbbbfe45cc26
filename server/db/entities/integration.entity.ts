import { defineEntity, p } from '@mikro-orm/core';
import type { IntegrationApp } from '../../../src/schemas/sync.ts';
import { clock } from '../../clock.ts';
import { User } from './user.entity.ts';

/**
 * One connected note tool of a user (one row per app): whether it is bound and enabled, its
 * settings (templates, write style, exclude ranges, filter), the credentials a push app is
 * bound with (used to call the tool, so kept as given, never sent to a client), the cursor up
 * to which the tool has everything, and the lease that lets one client sync at a time.
 */
export const IntegrationSchema = defineEntity({
  name: 'Integration',
  tableName: 'integration',
  uniques: [{ name: 'integration_user_app_unique', properties: ['user', 'app'] }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    app: p.string().length(16).$type<IntegrationApp>(),
    bound: p.boolean().default(false),
    enabled: p.boolean().default(true),
    /** zIntegrationSettings (src/schemas/sync.ts), as last saved. */
    settings: p.json<Record<string, unknown>>().default('{}'),
    credentials: p.json<Record<string, unknown>>().nullable(),
    cursor: p.string().length(512).nullable(),
    /** How many times the export was started over; cursors carry it, and older ones start over. */
    generation: p.integer().default(0),
    syncClient: p.string().length(128).nullable(),
    syncLeaseUntil: p.datetime().nullable(),
    lastRunAt: p.datetime().nullable(),
    /** 'ok' or 'error'; null before the first run. */
    lastResult: p.string().length(16).nullable(),
    /** The last error's message key, for the settings page. */
    lastError: p.string().length(64).nullable(),
    lastCount: p.integer().default(0),
    createdAt: p.datetime().onCreate(() => clock.now()),
    updatedAt: p
      .datetime()
      .onCreate(() => clock.now())
      .onUpdate(() => clock.now()),
  },
});

export class Integration extends IntegrationSchema.class {}
IntegrationSchema.setClass(Integration);
