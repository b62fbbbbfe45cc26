// /metrics cannot be grown from outside: a route label comes only from the app's route table, so
// thousands of requests naming procedures, paths and ids nobody declared (in any letter case)
// leave the same series behind them, while every declared route keeps a label of its own.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { type RunningServer, startServer } from '../helpers/http.ts';
import { OPERATOR_AUTHORIZATION, TEST_METRICS_TOKEN } from '../helpers/operator.ts';
import { prng } from '../helpers/prng.ts';

let deps: TestDeps;
let server: RunningServer;

beforeAll(async () => {
  deps = await createTestDeps({ METRICS_TOKEN: TEST_METRICS_TOKEN });
  server = await startServer(deps);
});
afterAll(async () => {
  await server.close();
  await deps.close();
});

const random = prng(32);
const name = () => `p${randomBytes(6).toString('hex')}`;
/** `path` with each letter upper- or lowercase at random: Express matches mounts in any case. */
const anyCase = (path: string) =>
  [...path].map((c) => (random() < 0.5 ? c.toUpperCase() : c.toLowerCase())).join('');

type Probe = { method: 'GET' | 'POST'; path: string };

/** One request of each kind a stranger can vary, with fresh names every time. */
const probes = (): Probe[] => [
  { method: 'POST', path: `/trpc/${name()}.${name()}` },
  { method: 'GET', path: `/trpc/${name()}` },
  { method: 'POST', path: `/trpc/${name()},${name()}.${name()},system.info` },
  { method: 'POST', path: `/${name()}/${name()}` },
  { method: 'POST', path: anyCase('/api/sync/v1/init') },
  { method: 'GET', path: anyCase(`/openapi/v1/daily/2026-03-${10 + Math.floor(random() * 18)}`) },
  { method: 'POST', path: anyCase('/apix/openapi/wucai/sync/download') },
];

async function send(probe: Probe): Promise<void> {
  const response = await fetch(`${server.url}${probe.path}`, {
    method: probe.method,
    headers: { 'content-type': 'application/json' },
    body: probe.method === 'POST' ? '{}' : undefined,
  });
  await response.arrayBuffer();
}

/** Sends `rounds` of every probe kind, a few at a time over kept-alive connections. */
async function flood(rounds: number): Promise<number> {
  let sent = 0;
  for (let round = 0; round < rounds; round += 10) {
    const batch = Array.from({ length: Math.min(10, rounds - round) }, probes).flat();
    await Promise.all(batch.map(send));
    sent += batch.length;
  }
  return sent;
}

async function scrape(): Promise<string> {
  const response = await fetch(`${server.url}/metrics`, {
    headers: { authorization: OPERATOR_AUTHORIZATION },
  });
  expect(response.status).toBe(200);
  return response.text();
}

/** Every series of the request metrics: name and labels, without the value. */
const requestSeries = (text: string) =>
  new Set(
    text
      .split('\n')
      .filter((line) => line.startsWith('http_request'))
      .map((line) => line.slice(0, line.lastIndexOf(' '))),
  );

const routes = (text: string) => new Set([...text.matchAll(/route="([^"]*)"/g)].map((m) => m[1]));

describe('/metrics route labels', () => {
  test('thousands of undeclared names leave the series as they were; declared routes keep theirs', async () => {
    await fetch(`${server.url}/trpc/system.info`).then((r) => r.arrayBuffer());
    // Once each, so every status these requests answer with already has its series.
    await flood(2);
    await scrape();
    const before = await scrape();

    expect(await flood(400)).toBe(2800);
    const after = await scrape();

    expect(requestSeries(after)).toEqual(requestSeries(before));
    // Only counts and sums grew a digit or two.
    expect(after.length - before.length).toBeLessThan(4096);

    expect([...routes(after)].sort()).toEqual(
      [
        '/apix/openapi/wucai/sync/download',
        '/api/sync/v1/init',
        '/metrics',
        '/openapi/v1/daily/:day',
        'trpc:batch',
        'trpc:system.info',
        'unmatched',
      ].sort(),
    );
  }, 180_000);
});
