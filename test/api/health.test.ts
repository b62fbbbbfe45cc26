import { type ChildProcess, spawn } from 'node:child_process';
import request from 'supertest';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createApp } from '../../server/app.ts';
import { createQueues, createRedis } from '../../server/queue.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { OPERATOR_AUTHORIZATION, TEST_METRICS_TOKEN } from '../helpers/operator.ts';
import { freePorts, serviceEnv } from '../helpers/processes.ts';
import { waitFor } from '../helpers/wait.ts';

let deps: TestDeps;
let redisProcess: ChildProcess;
let port: number;

beforeAll(async () => {
  deps = await createTestDeps({ METRICS_TOKEN: TEST_METRICS_TOKEN });
  // A Redis of this test's own, so stopping it does not disturb other test files.
  [port] = (await freePorts(1)) as [number];
  redisProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', ''], {
    stdio: 'ignore',
    env: serviceEnv(),
  });
  await waitFor(
    async () => {
      const probe = createRedis(`redis://127.0.0.1:${port}`, 'probe');
      probe.on('error', () => {});
      const up = await probe
        .connect()
        .then(() => true)
        .catch(() => false);
      probe.disconnect();
      return up ? true : undefined;
    },
    60_000,
    'the test redis-server to start',
  );
});

afterAll(async () => {
  redisProcess.kill('SIGKILL');
  await deps.close();
});

test('/healthz turns 503 when Redis stops; only the operator learns which check failed', async () => {
  const redis = createRedis(`redis://127.0.0.1:${port}`, 'producer');
  redis.on('error', () => {});
  const app = createApp({ ...deps, redis, queues: createQueues(redis, deps.config.redisPrefix) });

  await request(app).get('/healthz').expect(200);

  redisProcess.kill('SIGKILL');
  await new Promise((r) => redisProcess.once('exit', r));
  const down = await request(app).get('/healthz').expect(503);
  expect(down.body).toEqual({ ok: false });
  const operator = await request(app).get('/healthz').set('Authorization', OPERATOR_AUTHORIZATION);
  expect(operator.status).toBe(503);
  expect(operator.body).toEqual({ ok: false, checks: { postgres: true, redis: false } });
  redis.disconnect();
});
