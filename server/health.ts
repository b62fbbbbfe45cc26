import type { AppDeps } from './deps.ts';

export interface HealthReport {
  ok: boolean;
  checks: { postgres: boolean; redis: boolean };
}

/** Long enough for a loaded machine, short enough for a container probe (5 s). */
const CHECK_TIMEOUT_MS = 3_000;

/** `promise`, or a rejection once `ms` have passed (the timer keeps no process alive). */
export function withTimeout<T>(promise: Promise<T>, ms = CHECK_TIMEOUT_MS): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timed out')), ms).unref()),
  ]);
}

async function passes(check: () => Promise<unknown>): Promise<boolean> {
  try {
    await withTimeout(check());
    return true;
  } catch {
    return false;
  }
}

export async function checkHealth(deps: Pick<AppDeps, 'orm' | 'redis'>): Promise<HealthReport> {
  const [postgres, redis] = await Promise.all([
    passes(() => deps.orm.em.getConnection().execute('select 1')),
    passes(async () => {
      if ((await deps.redis.ping()) !== 'PONG') throw new Error('no pong');
    }),
  ]);
  return { ok: postgres && redis, checks: { postgres, redis } };
}
