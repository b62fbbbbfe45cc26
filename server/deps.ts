// The dependency container: what the HTTP server, the workers and the tests are built from. It
// knows no transport (tRPC, HTTP) and no worker, so both sides may import it.
import type { Redis } from 'ioredis';
import type { AppConfig } from './config.ts';
import { type DatabaseTarget, resolveDatabase } from './db/connect.ts';
import { createOrm, migrate, type Orm } from './db/orm.ts';
import type { CodeDeps } from './domain/auth/codes.service.ts';
import { ComputePool } from './domain/compute/compute-pool.ts';
import type { UploadDeps } from './domain/uploads/uploads.service.ts';
import { log, setLogLevel } from './log.ts';
import { closeQueues, createQueues, createRedis, type Queues } from './queue.ts';
import { createStorage, type FileStorage } from './storage/index.ts';

/** Long-lived things the app is built from; one set per process. */
export interface AppDeps {
  config: AppConfig;
  orm: Orm;
  redis: Redis;
  queues: Queues;
  storage: FileStorage;
  /** Worker threads for CPU-heavy work a user's input controls (templates, Markdown). */
  compute: ComputePool;
}

export interface Booted extends AppDeps {
  shutdown(): Promise<void>;
}

/**
 * Connects the database (migrating it) and Redis: what both the server and the workers need.
 * A `started` database (the launcher starts it beside Redis) is its caller's to stop.
 */
export async function boot(config: AppConfig, started?: DatabaseTarget): Promise<Booted> {
  setLogLevel(config.logLevel);
  const database = started ?? (await resolveDatabase(config));
  const orm = await createOrm(database.url);
  const applied = await migrate(orm);
  if (applied.length) log.info('migrations applied', { applied });
  const redis = createRedis(config.redisUrl, 'producer');
  redis.on('error', (err) => log.warn('redis', { error: err.message }));
  const queues = createQueues(redis, config.redisPrefix);
  const compute = createComputePool(config, redis);
  return {
    config,
    orm,
    redis,
    queues,
    storage: createStorage(config),
    compute,
    async shutdown() {
      await compute.close();
      await closeQueues(queues);
      redis.disconnect();
      await orm.close();
      if (!started) await database.stop();
    },
  };
}

export function createComputePool(config: AppConfig, redis: Redis): ComputePool {
  return new ComputePool({ size: config.computePoolSize, redis, redisPrefix: config.redisPrefix });
}

/** What mailing codes and the abuse limits need from the dependencies. */
export function codeDeps(deps: AppDeps): CodeDeps {
  return { redis: deps.redis, redisPrefix: deps.config.redisPrefix, queues: deps.queues };
}

/** What the extension's page uploads need: the store, the parse queue and the hourly limit. */
export function uploadDeps(deps: AppDeps): UploadDeps {
  return { ...codeDeps(deps), storage: deps.storage, config: deps.config };
}
