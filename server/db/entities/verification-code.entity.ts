import { defineEntity, p } from '@mikro-orm/core';
import { clock } from '../../clock.ts';
import { User } from './user.entity.ts';

/** A 6-digit code sent by email. Only a salted SHA-256 of it is stored, and the key of its mail's sealed copy until that is sent. */
export const VerificationCodeSchema = defineEntity({
  name: 'VerificationCode',
  tableName: 'verification_code',
  indexes: [{ properties: ['email', 'purpose'] }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    email: p.string().length(254),
    purpose: p.string().length(16),
    /** The signed-in user who asked (binding an email, deleting the account). */
    user: () => p.manyToOne(User).nullable().deleteRule('cascade').index(),
    salt: p.string().length(32),
    codeHash: p.string().length(64),
    /** Opens the code sealed in its mail job (hex); forgotten once the mail is sent. */
    mailKey: p.string().length(64).nullable(),
    attempts: p.smallint().default(0),
    expiresAt: p.datetime(),
    consumedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => clock.now()),
  },
});

export class VerificationCode extends VerificationCodeSchema.class {}
VerificationCodeSchema.setClass(VerificationCode);
