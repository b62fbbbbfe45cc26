import { defineEntity, p } from '@mikro-orm/core';
import type { TokenApp } from '../../../src/schemas/sync.ts';
import { clock } from '../../clock.ts';
import { User } from './user.entity.ts';

/** A note-tool plugin's access to the sync API. Only the token's SHA-256 is stored. */
export const SyncTokenSchema = defineEntity({
  name: 'SyncToken',
  tableName: 'sync_token',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    app: p.string().length(16).$type<TokenApp>(),
    name: p.string().length(64),
    tokenHash: p.string().length(64).unique(),
    /** The plugin's own id, when the token came from the device flow. */
    clientId: p.string().length(128).nullable(),
    lastUsedAt: p.datetime().nullable(),
    lastUsedClient: p.string().length(128).nullable(),
    createdAt: p.datetime().onCreate(() => clock.now()),
    revokedAt: p.datetime().nullable(),
  },
});

export class SyncToken extends SyncTokenSchema.class {}
SyncTokenSchema.setClass(SyncToken);
