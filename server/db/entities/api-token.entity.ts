import { defineEntity, p } from '@mikro-orm/core';
import type { ApiScope } from '../../../src/schemas/api-tokens.ts';
import { clock } from '../../clock.ts';
import { User } from './user.entity.ts';

/** A script's access to the Open API (`Bearer mapi_…`). Only the token's SHA-256 is stored. */
export const ApiTokenSchema = defineEntity({
  name: 'ApiToken',
  tableName: 'api_token',
  indexes: [{ properties: ['user', 'createdAt'] }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    name: p.string().length(100),
    scopes: p.array().columnType('text[]').$type<ApiScope[]>(),
    tokenHash: p.string().length(64).unique(),
    /** The token's first characters (`mapi_ab12`), shown in the list to tell tokens apart. */
    tokenHint: p.string().length(16),
    createdAt: p.datetime().onCreate(() => clock.now()),
    expiresAt: p.datetime().nullable(),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  },
});

export class ApiToken extends ApiTokenSchema.class {}
ApiTokenSchema.setClass(ApiToken);
