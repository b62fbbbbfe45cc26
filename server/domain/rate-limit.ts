import type { Redis } from 'ioredis';
import { AppError } from '../../src/errors.ts';

export interface Limit {
  /** Counter name without the prefix, e.g. `login:ip:1.2.3.4`. */
  key: string;
  max: number;
  windowSeconds: number;
}

/**
 * Fixed-window counters in Redis, shared by every server instance. Counts the hit, then throws
 * TOO_MANY_REQUESTS (with the seconds to wait) when any limit is over its maximum.
 */
export async function enforceLimits(redis: Redis, prefix: string, limits: Limit[]): Promise<void> {
  const multi = redis.multi();
  for (const limit of limits) {
    const key = `${prefix}:rl:${limit.key}`;
    multi.incr(key).expire(key, limit.windowSeconds, 'NX').ttl(key);
  }
  const results = (await multi.exec()) ?? [];
  limits.forEach((limit, i) => {
    const count = Number(results[i * 3]?.[1] ?? 0);
    const ttl = Number(results[i * 3 + 2]?.[1] ?? limit.windowSeconds);
    if (count > limit.max) {
      throw new AppError('TOO_MANY_REQUESTS', 'errors.tooManyRequests', { seconds: Math.max(ttl, 1) });
    }
  });
}

/** Forgets a counter (a successful sign-in clears its failures). */
export async function resetLimit(redis: Redis, prefix: string, key: string): Promise<void> {
  await redis.del(`${prefix}:rl:${key}`);
}
