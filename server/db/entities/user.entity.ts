import { defineEntity, p } from '@mikro-orm/core';
import { clock } from '../../clock.ts';

export const UserSchema = defineEntity({
  name: 'User',
  tableName: 'user',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    /** Null after the user unbinds their email (they then sign in another way). */
    email: p.string().length(254).nullable().unique(),
    passwordHash: p.text().nullable().hidden(),
    nickname: p.string().length(64),
    /** The public account id shown in settings; never the database id. */
    accountId: p.string().length(24).unique(),
    language: p.string().length(8).nullable(),
    /** Spec: theme stored as 'y' (dark) / 'n' (light); null follows the system. */
    theme: p.string().length(1).nullable(),
    memberLevel: p.smallint().default(0),
    proExpiresAt: p.datetime().nullable(),
    /** The expiry the three-days-before reminder was mailed for (so it is mailed once). */
    proRemindedFor: p.datetime().nullable(),
    timeZone: p.string().length(64).default('UTC'),
    createdAt: p.datetime().onCreate(() => clock.now()),
    updatedAt: p
      .datetime()
      .onCreate(() => clock.now())
      .onUpdate(() => clock.now()),
  },
});

export class User extends UserSchema.class {}
UserSchema.setClass(User);
