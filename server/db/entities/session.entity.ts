import { defineEntity, p } from '@mikro-orm/core';
import { clock } from '../../clock.ts';
import { User } from './user.entity.ts';

/** A signed-in browser. The cookie holds a random token; only its SHA-256 is stored. */
export const SessionSchema = defineEntity({
  name: 'Session',
  tableName: 'session',
  properties: {
    tokenHash: p.string().length(64).primary(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    createdAt: p.datetime().onCreate(() => clock.now()),
    expiresAt: p.datetime().index(),
    lastSeenAt: p.datetime().onCreate(() => clock.now()),
    userAgent: p.string().length(512).nullable(),
    ip: p.string().length(64).nullable(),
    rememberMe: p.boolean().default(false),
  },
});

export class Session extends SessionSchema.class {}
SessionSchema.setClass(Session);
