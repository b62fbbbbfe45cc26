import { defineEntity, p } from '@mikro-orm/core';
import { clock } from '../../clock.ts';
import { User } from './user.entity.ts';

/** A third-party identity (OpenID Connect `sub` at an issuer) that can sign a user in. */
export const AuthBindingSchema = defineEntity({
  name: 'AuthBinding',
  tableName: 'auth_binding',
  uniques: [{ properties: ['provider', 'subject'] }, { properties: ['user', 'provider'] }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    provider: p.string().length(16),
    subject: p.string().length(255),
    email: p.string().length(254).nullable(),
    createdAt: p.datetime().onCreate(() => clock.now()),
  },
});

export class AuthBinding extends AuthBindingSchema.class {}
AuthBindingSchema.setClass(AuthBinding);
