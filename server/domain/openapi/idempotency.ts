import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DAY_MS } from '../../../src/constants.ts';
import { AppError } from '../../../src/errors.ts';
import { clock } from '../../clock.ts';
import type { User } from '../../db/entities/index.ts';

/** How long an answer is kept for its key; after that the key may be used afresh. */
export const IDEMPOTENCY_TTL_MS = DAY_MS;
export const IDEMPOTENCY_KEY_MAX = 255;

/** A POST's answer, as it was sent the first time. */
export interface KeptAnswer {
  status: number;
  body: unknown;
}

/** What a request under an `Idempotency-Key` must match to be taken for a retry of the first. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${JSON.stringify(body ?? null)}`)
    .digest('hex');
}

/**
 * Runs `answer` once per (user, key): the first request claims the key in one statement (an
 * expired claim is taken over), runs, and keeps its answer; a retry gets that answer back; a
 * retry while the first still runs is refused (409), as is the key reused for another request
 * (422). A request that failed (it threw) lets go of its key, so the retry runs again.
 */
export async function onceByKey(
  em: EntityManager,
  user: User,
  key: string,
  fingerprint: string,
  answer: () => Promise<KeptAnswer>,
): Promise<KeptAnswer & { replayed: boolean }> {
  const now = clock.now();
  const [claimed] = await em.execute<unknown[]>(
    `insert into idempotency_record as r (user_id, key, fingerprint, created_at) values (?, ?, ?, ?)
     on conflict (user_id, key) do update
       set fingerprint = excluded.fingerprint, status = null, body = null, created_at = excluded.created_at
       where r.created_at < ?
     returning 1`,
    [user.id, key, fingerprint, now, new Date(now.getTime() - IDEMPOTENCY_TTL_MS)],
  );
  if (!claimed) {
    const [kept] = await em.execute<{ fingerprint: string; status: number | null; body: unknown }[]>(
      'select fingerprint, status, body from idempotency_record where user_id = ? and key = ?',
      [user.id, key],
    );
    if (!kept) throw new AppError('CONFLICT', 'errors.idempotencyKeyInUse');
    if (kept.fingerprint !== fingerprint) throw new AppError('BAD_REQUEST', 'errors.idempotencyKeyReused');
    if (kept.status === null) throw new AppError('CONFLICT', 'errors.idempotencyKeyInUse');
    return { status: kept.status, body: kept.body, replayed: true };
  }
  let result: KeptAnswer;
  try {
    result = await answer();
  } catch (error) {
    await forget(em, user, key);
    throw error;
  }
  await em.execute('update idempotency_record set status = ?, body = ? where user_id = ? and key = ?', [
    result.status,
    JSON.stringify(result.body),
    user.id,
    key,
  ]);
  return { ...result, replayed: false };
}

async function forget(em: EntityManager, user: User, key: string): Promise<void> {
  await em.execute('delete from idempotency_record where user_id = ? and key = ?', [user.id, key]);
}

/** Drops answers past their time (the scheduled purge). */
export async function purgeIdempotencyRecords(em: EntityManager): Promise<number> {
  const rows = await em.execute<unknown[]>(
    'delete from idempotency_record where created_at < ? returning 1',
    [new Date(clock.now().getTime() - IDEMPOTENCY_TTL_MS)],
  );
  return rows.length;
}
