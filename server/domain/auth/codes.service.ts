import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../../src/errors.ts';
import type { CodeMailJob, MailJob } from '../../../src/jobs.ts';
import {
  CODE_COOLDOWN_SECONDS,
  CODE_LENGTH,
  CODE_MAX_TRIES,
  CODE_TTL_MINUTES,
  type CodePurpose,
} from '../../../src/schemas/auth.ts';
import { clock } from '../../clock.ts';
import { type User, VerificationCode } from '../../db/entities/index.ts';
import { enqueue, type Queues } from '../../queue.ts';
import { codeMail } from '../mail/code-mail.ts';
import { enforceLimits, LIMITS, type LimitStore } from '../rate-limit.ts';
import { openCode, sealCode } from './code-seal.ts';
import { emailKey } from './email-key.ts';

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

export interface CodeDeps extends LimitStore {
  queues: Queues;
}

/** The key that allows one code per email and purpose per minute. */
export const codeCooldownKey = (redisPrefix: string, purpose: CodePurpose, email: string) =>
  `${redisPrefix}:code-cooldown:${purpose}:${emailKey(email)}`;

/**
 * Issues a 6-digit code valid for 10 minutes and mails it. One per email and purpose per minute,
 * and LIMITS.codeSend per email and per IP. A new code replaces the previous one. The mail job
 * names the code's row and carries the code sealed (see `zCodeMailJob`); `codeMailToSend` writes it.
 */
export async function issueCode(em: EntityManager, deps: CodeDeps, input: IssueCodeInput): Promise<void> {
  const cooldownKey = codeCooldownKey(deps.redisPrefix, input.purpose, input.email);
  const fresh = await deps.redis.set(cooldownKey, '1', 'EX', CODE_COOLDOWN_SECONDS, 'NX');
  if (fresh !== 'OK') {
    const ttl = await deps.redis.ttl(cooldownKey);
    throw new AppError('TOO_MANY_REQUESTS', 'errors.codeCooldown', { seconds: Math.max(ttl, 1) });
  }
  await enforceLimits(deps.redis, deps.redisPrefix, [
    { key: `code:email:${emailKey(input.email)}`, ...LIMITS.codeSend.perEmail },
    ...(input.ip ? [{ key: `code:ip:${input.ip}`, ...LIMITS.codeSend.perIp }] : []),
  ]);
  if (input.deliver === false) return;

  const code = String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0');
  const salt = randomBytes(16).toString('hex');
  const { key: mailKey, sealed } = sealCode(code);
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
      mailKey,
      expiresAt: new Date(clock.now().getTime() + CODE_TTL_MINUTES * 60_000),
    });
    await tem.flush();
    return created;
  });
  await enqueue(deps.queues, 'mail', {
    kind: 'code',
    codeId: record.id,
    sealedCode: sealed,
    language: input.language,
  });
}

/**
 * The mail of a queued code, written as it is sent from the code's row: null once the code was
 * used, replaced, expired or deleted with its account, or its mail already went out.
 */
export async function codeMailToSend(em: EntityManager, job: CodeMailJob): Promise<MailJob | null> {
  const row = await em.findOne(VerificationCode, {
    id: job.codeId,
    consumedAt: null,
    expiresAt: { $gt: clock.now() },
    mailKey: { $ne: null },
  });
  const code = row?.mailKey ? openCode(row.mailKey, job.sealedCode) : null;
  return row && code ? codeMail(row.email, code, row.purpose as CodePurpose, job.language) : null;
}

/** Forgets the key of a code whose mail went out: the job's sealed copy can never be read again. */
export async function forgetCodeMailKey(em: EntityManager, codeId: number): Promise<void> {
  await em.nativeUpdate(VerificationCode, { id: codeId }, { mailKey: null });
}

/** Deletes every code sent to an account's email or asked for by it; their ids, to remove their mails. */
export async function deleteCodesOf(em: EntityManager, user: { id: number; email?: string | null }) {
  const rows = await em.execute<{ id: string }[]>(
    `delete from "verification_code" where "user_id" = ? or "email" = ? returning "id"`,
    [user.id, user.email ?? null],
  );
  return rows.map((row) => Number(row.id));
}

/** A code that passed `checkCode`, to be used up with `consumeCode`. */
export interface CheckedCode {
  id: number;
}

export interface CheckCodeInput {
  email: string;
  purpose: CodePurpose;
  code: string;
  /** For codes a signed-in user asked for (binding an email, deleting the account). */
  user?: User;
  /** The client's address, for the per-address limit on checks. */
  ip: string | null;
}

/**
 * Checks a code without consuming it. Checks are limited per email and purpose and per address
 * (LIMITS.codeCheck). Each check first claims one of the code's CODE_MAX_TRIES tries in a
 * single UPDATE (so parallel guesses cannot share a try), then compares; after the last try the
 * code is dead, even for the right digits. Returns the code to consume in the caller's
 * transaction with `consumeCode`.
 */
export async function checkCode(
  em: EntityManager,
  deps: LimitStore,
  input: CheckCodeInput,
): Promise<CheckedCode> {
  await enforceLimits(deps.redis, deps.redisPrefix, [
    {
      key: `code-check:email:${input.purpose}:${emailKey(input.email)}`,
      ...LIMITS.codeCheck.perEmail,
    },
    ...(input.ip ? [{ key: `code-check:ip:${input.ip}`, ...LIMITS.codeCheck.perIp }] : []),
  ]);
  const live = [input.email, input.purpose, clock.now(), ...(input.user ? [input.user.id] : [])];
  const newestLive = `select "id" from "verification_code"
    where "email" = ? and "purpose" = ? and "consumed_at" is null and "expires_at" > ?
    ${input.user ? 'and "user_id" = ?' : ''}
    order by "id" desc limit 1`;
  // One statement, committed at once: row locks serialize concurrent claims, and each re-tests
  // its conditions on the row as the previous claim left it, so at most CODE_MAX_TRIES succeed.
  const [claimed] = await em.execute<{ id: string; salt: string; code_hash: string; attempts: number }[]>(
    `update "verification_code" set "attempts" = "attempts" + 1
     where "id" = (${newestLive}) and "consumed_at" is null and "attempts" < ?
     returning "id", "salt", "code_hash", "attempts"`,
    [...live, CODE_MAX_TRIES],
  );
  if (!claimed) {
    const [exhausted] = await em.execute<{ id: string }[]>(newestLive, live);
    throw new AppError('BAD_REQUEST', exhausted ? 'errors.codeTooManyTries' : 'errors.codeInvalid');
  }
  const expected = Buffer.from(claimed.code_hash, 'hex');
  const given = Buffer.from(digest(claimed.salt, input.code), 'hex');
  if (!timingSafeEqual(expected, given)) {
    throw new AppError(
      'BAD_REQUEST',
      claimed.attempts >= CODE_MAX_TRIES ? 'errors.codeTooManyTries' : 'errors.codeInvalid',
    );
  }
  return { id: Number(claimed.id) };
}

/** Marks a checked code used; a concurrent second use of the same code finds nothing to mark. */
export async function consumeCode(em: EntityManager, code: CheckedCode): Promise<void> {
  const updated = await em.nativeUpdate(
    VerificationCode,
    { id: code.id, consumedAt: null },
    { consumedAt: clock.now(), mailKey: null },
  );
  if (updated !== 1) throw new AppError('BAD_REQUEST', 'errors.codeInvalid');
}
