import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Redis } from 'ioredis';
import { AppError } from '../../../src/errors.ts';
import { jobIds } from '../../../src/jobs.ts';
import {
  CODE_COOLDOWN_SECONDS,
  CODE_MAX_TRIES,
  CODE_TTL_MINUTES,
  type CodePurpose,
} from '../../../src/schemas/auth.ts';
import { clock } from '../../clock.ts';
import { type User, VerificationCode } from '../../db/entities/index.ts';
import type { Queues } from '../../queue.ts';
import { codeMail } from '../mail/code-mail.ts';
import { enforceLimits } from '../rate-limit.ts';

function digest(salt: string, code: string): string {
  return createHash('sha256').update(`${salt}:${code}`).digest('hex');
}

export interface IssueCodeInput {
  email: string;
  purpose: CodePurpose;
  user?: User;
  ip: string | null;
  language: string | null;
  /** false: answer as if sent but send nothing (recovery for an unknown email: no enumeration). */
  deliver?: boolean;
}

export interface CodeDeps {
  redis: Redis;
  redisPrefix: string;
  queues: Queues;
}

/**
 * Issues a 6-digit code valid for 10 minutes and mails it. One per email and purpose per minute,
 * ten an hour per email, thirty an hour per IP. A new code replaces the previous one.
 */
export async function issueCode(em: EntityManager, deps: CodeDeps, input: IssueCodeInput): Promise<void> {
  const cooldownKey = `${deps.redisPrefix}:code-cooldown:${input.purpose}:${input.email}`;
  const fresh = await deps.redis.set(cooldownKey, '1', 'EX', CODE_COOLDOWN_SECONDS, 'NX');
  if (fresh !== 'OK') {
    const ttl = await deps.redis.ttl(cooldownKey);
    throw new AppError('TOO_MANY_REQUESTS', 'errors.codeCooldown', { seconds: Math.max(ttl, 1) });
  }
  await enforceLimits(deps.redis, deps.redisPrefix, [
    { key: `code:email:${input.email}`, max: 10, windowSeconds: 3600 },
    ...(input.ip ? [{ key: `code:ip:${input.ip}`, max: 30, windowSeconds: 3600 }] : []),
  ]);
  if (input.deliver === false) return;

  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const salt = randomBytes(16).toString('hex');
  const record = await em.transactional(async (tem) => {
    await tem.nativeDelete(VerificationCode, {
      email: input.email,
      purpose: input.purpose,
      consumedAt: null,
    });
    const created = tem.create(VerificationCode, {
      email: input.email,
      purpose: input.purpose,
      user: input.user ?? null,
      salt,
      codeHash: digest(salt, code),
      expiresAt: new Date(clock.now().getTime() + CODE_TTL_MINUTES * 60_000),
    });
    await tem.flush();
    return created;
  });
  await deps.queues.mail.add('code', codeMail(input.email, code, input.purpose, input.language), {
    jobId: jobIds.mail(`code-${record.id}`),
  });
}

/**
 * Checks a code without consuming it. A wrong code counts a try (committed at once, whatever
 * happens next); after five, the code is dead. Returns the record to consume in the caller's
 * transaction with `consumeCode`.
 */
export async function checkCode(
  em: EntityManager,
  input: { email: string; purpose: CodePurpose; code: string; user?: User },
): Promise<VerificationCode> {
  const record = await em.findOne(
    VerificationCode,
    {
      email: input.email,
      purpose: input.purpose,
      consumedAt: null,
      expiresAt: { $gt: clock.now() },
      ...(input.user ? { user: input.user } : {}),
    },
    { orderBy: { id: 'desc' } },
  );
  if (!record) throw new AppError('BAD_REQUEST', 'errors.codeInvalid');
  if (record.attempts >= CODE_MAX_TRIES) throw new AppError('BAD_REQUEST', 'errors.codeTooManyTries');
  const expected = Buffer.from(record.codeHash, 'hex');
  const given = Buffer.from(digest(record.salt, input.code), 'hex');
  if (!timingSafeEqual(expected, given)) {
    const attempts = record.attempts + 1;
    await em.nativeUpdate(VerificationCode, { id: record.id }, { attempts });
    throw new AppError(
      'BAD_REQUEST',
      attempts >= CODE_MAX_TRIES ? 'errors.codeTooManyTries' : 'errors.codeInvalid',
    );
  }
  return record;
}

/** Marks a checked code used; a concurrent second use of the same code finds nothing to mark. */
export async function consumeCode(em: EntityManager, record: VerificationCode): Promise<void> {
  const updated = await em.nativeUpdate(
    VerificationCode,
    { id: record.id, consumedAt: null },
    { consumedAt: clock.now() },
  );
  if (updated !== 1) throw new AppError('BAD_REQUEST', 'errors.codeInvalid');
}
