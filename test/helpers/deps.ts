import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setClock } from '../../server/clock.ts';
import { type AppConfig, loadConfig } from '../../server/config.ts';
import { createOrm } from '../../server/db/orm.ts';
import { type AppDeps, createComputePool } from '../../server/deps.ts';
import { setLogLevel } from '../../server/log.ts';
import { closeQueues, createQueues, createRedis } from '../../server/queue.ts';
import { createStorage } from '../../server/storage/index.ts';
import { createTestDatabase, dropInBackground, type TestDatabase } from './db.ts';

export interface TestDeps extends AppDeps {
  database: TestDatabase;
  close(): Promise<void>;
}

/**
 * The instant every test server starts at (its clock then runs on in real time), whatever the
 * hour and zone of the machine: mid-morning UTC, far from midnight in the zones tests use.
 * Tests about the time of day set their own with `setClock`.
 */
export const TEST_NOW = '2026-03-14T09:30:00Z';

/**
 * Real dependencies for one test file: its own PostgreSQL database and its own Redis key
 * prefix, so files run in parallel without seeing each other's rows, queues or counters.
 */
export async function createTestDeps(env: Record<string, string> = {}): Promise<TestDeps> {
  setClock(TEST_NOW);
  const database = await createTestDatabase();
  // Stored files (uploads) go to a directory of this file's own, removed with it.
  const dataDir = mkdtempSync(path.join(tmpdir(), 'margin-test-data-'));
  const config: AppConfig = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: database.url,
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `t-${randomBytes(5).toString('hex')}`,
    DATA_DIR: dataDir,
    ...env,
  });
  setLogLevel(config.logLevel);
  const orm = await createOrm(database.url, { pool: { min: 0, max: 4 } });
  const redis = createRedis(config.redisUrl, 'producer');
  const queues = createQueues(redis, config.redisPrefix);
  const compute = createComputePool(config, redis);
  return {
    config,
    orm,
    redis,
    queues,
    storage: createStorage(config),
    compute,
    database,
    async close() {
      await compute.close();
      await closeQueues(queues);
      const keys = await redis.keys(`${config.redisPrefix}:*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
      await orm.close();
      dropInBackground(database);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
