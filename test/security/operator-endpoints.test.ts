// /metrics and /healthz as a stranger finds them: /healthz says ok or not ok and nothing more,
// /metrics (failed sign-ins, orders, queue depths, the Node version) is for the operator only —
// the holder of METRICS_TOKEN, or whoever reaches the METRICS_PORT listener — and the launched
// server opens that listener beside the app.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { appMetrics, createApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { createMetricsApp } from '../../server/http/operator.routes.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { OPERATOR_AUTHORIZATION, TEST_METRICS_TOKEN } from '../helpers/operator.ts';
import { freePorts, portAnswers } from '../helpers/processes.ts';
import { waitFor } from '../helpers/wait.ts';

let deps: TestDeps;

beforeAll(async () => {
  deps = await createTestDeps();
});
afterAll(() => deps.close());

type MetricsEnv = { METRICS_TOKEN?: string; METRICS_PORT?: string; METRICS_HOST?: string };

/** The test's deps with these metrics settings, parsed as at start. */
function depsWith(env: MetricsEnv) {
  return { ...deps, config: { ...deps.config, metrics: loadConfig(env).metrics } };
}

/** The app and the metrics listener's app of one process (one registry), with these settings. */
function appsWith(env: MetricsEnv) {
  const configured = depsWith(env);
  const metrics = appMetrics(configured);
  return { app: createApp(configured, metrics), metricsApp: createMetricsApp(configured, metrics) };
}

/** What a stranger may learn from /healthz: whether the server is well. */
const STRANGER_HEALTH = { ok: true };
const OPERATOR_HEALTH = { ok: true, checks: { postgres: true, redis: true } };

describe('without METRICS_TOKEN or METRICS_PORT (the default)', () => {
  test('/metrics is not served, whatever the request carries', async () => {
    const { app } = appsWith({});
    for (const authorization of [undefined, OPERATOR_AUTHORIZATION, 'Bearer ']) {
      const res = await request(app)
        .get('/metrics')
        .set(authorization ? { Authorization: authorization } : {});
      expect(res.status).toBe(404);
      expect(res.text).not.toMatch(/process_|nodejs_|http_request/);
    }
  });

  test('/healthz says ok and nothing else', async () => {
    const { app } = appsWith({});
    const res = await request(app).get('/healthz').set('Authorization', OPERATOR_AUTHORIZATION).expect(200);
    expect(res.body).toEqual(STRANGER_HEALTH);
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('METRICS_TOKEN', () => {
  const wrongTokens = [
    'Bearer wrong',
    `Bearer ${TEST_METRICS_TOKEN.slice(0, -1)}x`,
    `Bearer ${TEST_METRICS_TOKEN}${TEST_METRICS_TOKEN}`,
    `Basic ${TEST_METRICS_TOKEN}`,
    TEST_METRICS_TOKEN,
  ];

  test('/metrics asks for the token, refuses any other, and answers its holder', async () => {
    const { app } = appsWith({ METRICS_TOKEN: TEST_METRICS_TOKEN });
    const anonymous = await request(app).get('/metrics').expect(401);
    expect(anonymous.headers['www-authenticate']).toBe('Bearer');
    expect(anonymous.body).toEqual({ error: 'errors.unauthorized' });
    for (const authorization of wrongTokens) {
      const res = await request(app).get('/metrics').set('Authorization', authorization);
      expect(res.status, authorization).toBe(401);
      expect(res.text).not.toMatch(/process_|nodejs_/);
    }
    const operator = await request(app)
      .get('/metrics')
      .set('Authorization', OPERATOR_AUTHORIZATION)
      .expect(200);
    expect(operator.text).toMatch(/^nodejs_version_info\{/m);
    expect(operator.text).toMatch(/^queue_jobs\{/m);
  });

  test('/healthz tells only the token holder which checks passed', async () => {
    const { app } = appsWith({ METRICS_TOKEN: TEST_METRICS_TOKEN });
    expect((await request(app).get('/healthz').expect(200)).body).toEqual(STRANGER_HEALTH);
    for (const authorization of wrongTokens) {
      const res = await request(app).get('/healthz').set('Authorization', authorization).expect(200);
      expect(res.body, authorization).toEqual(STRANGER_HEALTH);
    }
    const operator = await request(app)
      .get('/healthz')
      .set('Authorization', OPERATOR_AUTHORIZATION)
      .expect(200);
    expect(operator.body).toEqual(OPERATOR_HEALTH);
  });
});

describe('METRICS_PORT', () => {
  test('the app no longer serves /metrics; the listener serves it, counting the app’s requests, and the details of /healthz', async () => {
    const { app, metricsApp } = appsWith({ METRICS_PORT: '9464' });
    await request(app).get('/trpc/system.info').expect(200);
    expect((await request(app).get('/metrics')).status).toBe(404);
    expect((await request(app).get('/healthz').expect(200)).body).toEqual(STRANGER_HEALTH);

    const scraped = await request(metricsApp).get('/metrics').expect(200);
    expect(scraped.text).toMatch(/^http_requests_total\{[^}]*route="trpc:system.info"[^}]*\} 1$/m);
    expect((await request(metricsApp).get('/healthz').expect(200)).body).toEqual(OPERATOR_HEALTH);
    // Nothing else is served there: not the app, not its API.
    for (const url of ['/', '/trpc/system.info', '/openapi/v1/openapi.json'])
      expect((await request(metricsApp).get(url)).status, url).toBe(404);
  });

  test('with a token as well, the listener asks for it too', async () => {
    const { app, metricsApp } = appsWith({ METRICS_PORT: '9464', METRICS_TOKEN: TEST_METRICS_TOKEN });
    expect((await request(metricsApp).get('/metrics')).status).toBe(401);
    expect((await request(metricsApp).get('/healthz').expect(200)).body).toEqual(STRANGER_HEALTH);
    await request(metricsApp).get('/metrics').set('Authorization', OPERATOR_AUTHORIZATION).expect(200);
    const health = await request(metricsApp).get('/healthz').set('Authorization', OPERATOR_AUTHORIZATION);
    expect(health.body).toEqual(OPERATOR_HEALTH);
    // …and the token still opens the app's own /metrics.
    await request(app).get('/metrics').set('Authorization', OPERATOR_AUTHORIZATION).expect(200);
  });
});

describe('the launched server', () => {
  let child: ChildProcess | undefined;
  let dataDir: string;
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('opens the metrics listener beside the app, sharing its counts', async () => {
    const [port, metricsPort] = (await freePorts(2)) as [number, number];
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'margin-metrics-listener-'));
    const root = path.resolve(import.meta.dirname, '../..');
    child = spawn(path.join(root, 'node_modules/.bin/node'), ['server/main.ts'], {
      cwd: root,
      stdio: 'ignore',
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATABASE_URL: deps.database.url,
        REDIS_URL: deps.config.redisUrl,
        REDIS_PREFIX: deps.config.redisPrefix,
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: String(port),
        METRICS_PORT: String(metricsPort),
      },
    });
    const base = `http://127.0.0.1:${port}`;
    await waitFor(
      async () => ((await portAnswers(port)) && (await portAnswers(metricsPort)) ? true : undefined),
      60_000,
      'both listeners',
    );

    expect(await (await fetch(`${base}/healthz`)).json()).toEqual(STRANGER_HEALTH);
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
    await (await fetch(`${base}/trpc/system.info`)).arrayBuffer();

    const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toMatch(/^http_requests_total\{[^}]*route="trpc:system.info"[^}]*\} 1$/m);
    expect(await (await fetch(`http://127.0.0.1:${metricsPort}/healthz`)).json()).toEqual(OPERATOR_HEALTH);
  }, 90_000);
});
