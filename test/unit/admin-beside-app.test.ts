// `npm run admin` beside an app running on its embedded PostgreSQL: the CLI connects to that
// server (its port from postmaster.pid, the kept password) instead of refusing, and leaves it
// running, so the app keeps serving. One real cluster (initdb costs seconds).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../../server/db/embedded.ts';
import { User } from '../../server/db/entities/index.ts';
import { createOrm, migrate } from '../../server/db/orm.ts';
import { type AppDeps, createComputePool } from '../../server/deps.ts';
import { newUser } from '../../server/domain/auth/auth.service.ts';
import { setLogLevel } from '../../server/log.ts';
import { closeQueues, createQueues, createRedis } from '../../server/queue.ts';
import { createStorage } from '../../server/storage/index.ts';
import { type RunningServer, startServer } from '../helpers/http.ts';
import { freePorts } from '../helpers/processes.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let dataDir: string;
let database: EmbeddedDatabase;
let deps: AppDeps;
let server: RunningServer;
beforeAll(async () => {
  setLogLevel('silent');
  // A directory the `postgres` account can enter (as root PostgreSQL runs as it).
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'margin-admin-'));
  fs.chmodSync(dataDir, 0o755);
  const [port] = await freePorts(1);
  database = await startEmbeddedPostgres(dataDir, port!);
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: database.url,
    REDIS_URL,
    REDIS_PREFIX: `t-${randomBytes(5).toString('hex')}`,
    DATA_DIR: dataDir,
  });
  const orm = await createOrm(database.url, { pool: { min: 0, max: 2 } });
  await migrate(orm);
  const redis = createRedis(config.redisUrl, 'producer');
  deps = {
    config,
    orm,
    redis,
    queues: createQueues(redis, config.redisPrefix),
    storage: createStorage(config),
    compute: createComputePool(config, redis),
  };
  server = await startServer(deps);
}, 120_000);
afterAll(async () => {
  await server?.close();
  if (deps) {
    await deps.compute.close();
    await closeQueues(deps.queues);
    deps.redis.disconnect();
    await deps.orm.close();
  }
  await database?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('admin CLI beside the running app', () => {
  test('grant uses the app’s embedded PostgreSQL, which keeps running and serving', async () => {
    const em = deps.orm.em.fork();
    const email = 'reader@example.test';
    newUser(em, { email, passwordHash: null, language: null });
    await em.flush();
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

    // The configured port is another one: the CLI finds the running server's own.
    const [otherPort] = await freePorts(1);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(otherPort),
      REDIS_URL,
      LOG_LEVEL: 'silent',
    };
    delete env.DATABASE_URL;
    const { stdout } = await run(process.execPath, ['server/cli/admin.ts', 'grant', email, '30'], {
      cwd: root,
      env,
    });
    expect(stdout).toMatch(/^granted 30 pro days to /);

    const user = await deps.orm.em.fork().findOneOrFail(User, { email });
    expect(user.proExpiresAt).toBeInstanceOf(Date);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  }, 60_000);
});
