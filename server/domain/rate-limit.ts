import type { Redis } from 'ioredis';
import { AppError } from '../../src/errors.ts';

/** Where the counters live: the Redis every server instance shares, under the install's prefix. */
export interface LimitStore {
  redis: Redis;
  redisPrefix: string;
}

export interface Limit {
  /** Counter name without the prefix, e.g. `login:ip:1.2.3.4`. */
  key: string;
  max: number;
  windowSeconds: number;
}

/** How many failures an (account, address) pair gets free, and how the wait after them grows. */
export interface Backoff {
  freeTries: number;
  firstWaitSeconds: number;
  maxWaitSeconds: number;
  /** A pair with no attempt for this long starts over. */
  forgetAfterSeconds: number;
}

/**
 * Every abuse limit in one place. Windows are fixed and counted in Redis, so all server
 * instances share them; each hit is counted before the work it guards is done.
 */
export const LIMITS = {
  /** Sending an emailed code (on top of one per email and purpose per minute). */
  codeSend: {
    perEmail: { max: 10, windowSeconds: 3600 },
    perIp: { max: 30, windowSeconds: 3600 },
  },
  /**
   * Checking an emailed code (each code also dies after CODE_MAX_TRIES wrong tries). Per email
   * and purpose bounds guessing across fresh codes; per address bounds guessing across emails.
   */
  codeCheck: {
    perEmail: { max: 20, windowSeconds: 3600 },
    perIp: { max: 30, windowSeconds: 3600 },
  },
  login: {
    /** Sign-in attempts from one address, whatever the email. */
    perIp: { max: 50, windowSeconds: 15 * 60 },
    /**
     * Per (email, address): five tries, then a wait of 30 s, 60 s, 120 s, 240 s, at most 5 min
     * between tries. Keyed by address too, so a stranger cannot lock the owner out by email.
     */
    backoff: { freeTries: 5, firstWaitSeconds: 30, maxWaitSeconds: 300, forgetAfterSeconds: 3600 },
  },
  /** Creating QR sign-in tickets (each a Redis key living QR_TICKET_TTL_SECONDS). */
  qrCreate: {
    perIpMinute: { max: 10, windowSeconds: 60 },
    perIpHour: { max: 60, windowSeconds: 3600 },
  },
  /** A note-tool plugin polling for its token (about once a second while the user confirms). */
  devicePoll: {
    perIp: { max: 60, windowSeconds: 60 },
  },
  /** New orders: each one is a call to the payment provider. */
  orders: {
    perUserHour: { max: 20, windowSeconds: 3600 },
  },
  /** Upload policies for the extension's page saves (each may store up to 10 MB). */
  uploads: {
    perUserHour: { max: 100, windowSeconds: 3600 },
  },
  /** Messages from the feedback form (each may mail the operator), per account. */
  feedback: {
    perUserHour: { max: 5, windowSeconds: 3600 },
    perUserDay: { max: 20, windowSeconds: 86_400 },
  },
} as const satisfies Record<string, Record<string, Omit<Limit, 'key'> | Backoff>>;

/**
 * The Open API's window per token; how many calls fit in it is the plan's `apiRequestsPerMinute`
 * (each answer carries RateLimit-* headers from it).
 */
export const OPEN_API_WINDOW_SECONDS = 60;

/** A refusal for going over a limit, saying how many seconds to wait. */
export const tooManyRequests = (seconds: number) =>
  new AppError('TOO_MANY_REQUESTS', 'errors.tooManyRequests', { seconds: Math.max(Math.ceil(seconds), 1) });

/**
 * Fixed-window counters in Redis, shared by every server instance. Counts the hit, then throws
 * TOO_MANY_REQUESTS (with the seconds to wait) when any limit is over its maximum.
 */
export async function enforceLimits(redis: Redis, prefix: string, limits: Limit[]): Promise<void> {
  for (const hit of await countHits(redis, prefix, limits)) {
    if (hit.count > hit.limit.max) throw tooManyRequests(hit.resetSeconds);
  }
}

/** One limit after counting a hit: how many hits its window holds and when the window ends. */
export interface LimitHit {
  limit: Limit;
  count: number;
  resetSeconds: number;
}

/** Counts one hit against each limit, in one round trip. */
export async function countHits(redis: Redis, prefix: string, limits: Limit[]): Promise<LimitHit[]> {
  const multi = redis.multi();
  for (const limit of limits) {
    const key = `${prefix}:rl:${limit.key}`;
    multi.incr(key).expire(key, limit.windowSeconds, 'NX').ttl(key);
  }
  const results = (await multi.exec()) ?? [];
  return limits.map((limit, i) => ({
    limit,
    count: Number(results[i * 3]?.[1] ?? 0),
    resetSeconds: Math.max(Number(results[i * 3 + 2]?.[1] ?? limit.windowSeconds), 1),
  }));
}

/**
 * Claims one try atomically: refused (returns the milliseconds left) while a wait is running;
 * otherwise counts the try, and from the `free`-th on starts the next wait, doubling each time.
 * Times come from the server clock (ARGV[1]), so they follow `clock.now()`.
 */
const CLAIM_TRY = `
local now = tonumber(ARGV[1])
local blocked = tonumber(redis.call('HGET', KEYS[1], 'until') or '0')
if blocked > now then return blocked - now end
local n = redis.call('HINCRBY', KEYS[1], 'n', 1)
local free = tonumber(ARGV[2])
if n >= free then
  local wait = math.min(tonumber(ARGV[3]) * 2 ^ (n - free), tonumber(ARGV[4]))
  redis.call('HSET', KEYS[1], 'until', string.format('%d', now + wait))
end
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[5]))
return 0`;

/**
 * A growing back-off for one key (e.g. an email and an address): `backoff.freeTries` tries
 * go through, parallel or not; after that one try per wait. Throws TOO_MANY_REQUESTS with the
 * seconds left while waiting. `clearTries` forgets the key (after a success).
 */
export async function claimTry(
  redis: Redis,
  prefix: string,
  key: string,
  backoff: Backoff,
  nowMs: number,
): Promise<void> {
  const waitMs = Number(
    await redis.eval(
      CLAIM_TRY,
      1,
      `${prefix}:bo:${key}`,
      String(nowMs),
      String(backoff.freeTries),
      String(backoff.firstWaitSeconds * 1000),
      String(backoff.maxWaitSeconds * 1000),
      String(backoff.forgetAfterSeconds),
    ),
  );
  if (waitMs > 0) throw tooManyRequests(waitMs / 1000);
}

/** Forgets a back-off key (a successful sign-in clears its failures). */
export async function clearTries(redis: Redis, prefix: string, key: string): Promise<void> {
  await redis.del(`${prefix}:bo:${key}`);
}
