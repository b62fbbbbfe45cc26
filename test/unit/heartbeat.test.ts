// The worker's heartbeat and the container probe (server/cli/healthcheck.ts) that judges it,
// run as Docker would: a separate process with ROLE and DATA_DIR in its environment.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { startHeartbeat } from '../../jobs/heartbeat.ts';
import { HEARTBEAT_MAX_AGE_MS, heartbeatAgeMs, heartbeatFile } from '../../server/heartbeat-file.ts';
import { roleFromEnv } from '../../server/role.ts';

const root = path.resolve(import.meta.dirname, '../..');
const node = path.resolve(root, 'node_modules/.bin/node');

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'margin-heartbeat-'));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** Runs the probe like Docker's HEALTHCHECK does (asynchronously, so a test server here can answer it). */
async function probe(env: Record<string, string>): Promise<{ status: number | null; output: string }> {
  const child = spawn(node, ['server/cli/healthcheck.ts'], {
    cwd: root,
    // The test's own environment (and so its clock, even a faked one), as a worker and its
    // probe share the host's; only the role's settings differ.
    env: { ...process.env, DATA_DIR: dataDir, ROLE: undefined, ...env },
  });
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { status, output };
}

describe('worker heartbeat', () => {
  test('writes the time at start and on every interval, and removes it on stop', async () => {
    let now = 1_000_000;
    const heartbeat = await startHeartbeat({ dataDir, instance: 'w1', intervalMs: 20, now: () => now });
    const file = heartbeatFile(dataDir, 'w1');
    expect(fs.readFileSync(file, 'utf8').trim()).toBe('1000000');
    now = 1_005_000;
    await expect.poll(() => fs.readFileSync(file, 'utf8').trim()).toBe('1005000');
    expect(await heartbeatAgeMs(dataDir, 'w1', 1_010_000)).toBe(5_000);
    await heartbeat.stop();
    expect(fs.existsSync(file)).toBe(false);
    expect(await heartbeatAgeMs(dataDir, 'w1')).toBeUndefined();
  });

  test('skips beats while its check fails, so a worker cut off from Redis goes stale', async () => {
    let healthy = false;
    const heartbeat = await startHeartbeat({
      dataDir,
      instance: 'w2',
      intervalMs: 20,
      check: async () => {
        if (!healthy) throw new Error('redis down');
      },
    });
    expect(await heartbeatAgeMs(dataDir, 'w2')).toBeUndefined();
    healthy = true;
    await expect.poll(() => heartbeatAgeMs(dataDir, 'w2')).toBeDefined();
    await heartbeat.stop();
  });

  test('an empty or garbled file is no heartbeat', async () => {
    fs.writeFileSync(heartbeatFile(dataDir, 'w3'), '');
    expect(await heartbeatAgeMs(dataDir, 'w3')).toBeUndefined();
    fs.writeFileSync(heartbeatFile(dataDir, 'w3'), 'yesterday\n');
    expect(await heartbeatAgeMs(dataDir, 'w3')).toBeUndefined();
  });

  test('one file per host, since scaled workers share the data volume', () => {
    expect(heartbeatFile('/data', 'a1b2c3')).toBe('/data/worker-heartbeat.a1b2c3');
    expect(heartbeatFile('/data')).toBe(path.join('/data', `worker-heartbeat.${os.hostname()}`));
    expect(path.dirname(heartbeatFile('/data', '../../etc/x'))).toBe('/data');
  });
});

describe('container probe', () => {
  test('ROLE picks the role; server by default', () => {
    expect(roleFromEnv({})).toBe('server');
    expect(roleFromEnv({ ROLE: 'worker' })).toBe('worker');
    expect(roleFromEnv({ ROLE: ' server ' })).toBe('server');
    expect(roleFromEnv({ ROLE: 'migrate' })).toBeUndefined();
  });

  test('worker: healthy only with a fresh heartbeat', async () => {
    const missing = await probe({ ROLE: 'worker' });
    expect(missing.status).toBe(1);
    expect(missing.output).toMatch(/no worker heartbeat/);

    const file = heartbeatFile(dataDir);
    fs.writeFileSync(file, `${Date.now() - HEARTBEAT_MAX_AGE_MS - 5_000}\n`);
    const stale = await probe({ ROLE: 'worker' });
    expect(stale.status).toBe(1);
    expect(stale.output).toMatch(/heartbeat is \d+ s old/);

    const heartbeat = await startHeartbeat({ dataDir });
    expect((await probe({ ROLE: 'worker' })).status).toBe(0);
    await heartbeat.stop();
    expect((await probe({ ROLE: 'worker' })).status).toBe(1);
  });

  test('server: healthy only when GET /healthz answers 2xx', async () => {
    let status = 200;
    const paths: string[] = [];
    const server = http.createServer((req, res) => {
      paths.push(req.url ?? '');
      res.writeHead(status).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = String((server.address() as AddressInfo).port);
    try {
      expect((await probe({ PORT: port })).status).toBe(0);
      status = 503;
      const down = await probe({ ROLE: 'server', PORT: port });
      expect(down.status).toBe(1);
      expect(down.output).toMatch(/503/);
      expect(paths).toEqual(['/healthz', '/healthz']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    // Nothing listening at all.
    expect((await probe({ PORT: port })).status).toBe(1);
  });

  test('an unknown ROLE is unhealthy, and the entry point refuses it', async () => {
    expect((await probe({ ROLE: 'nope' })).status).toBe(1);
    const entry = spawnSync(node, ['server/cli/role.ts'], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', ROLE: 'nope' },
      encoding: 'utf8',
    });
    expect(entry.status).toBe(1);
    expect(entry.stderr).toMatch(/ROLE: expected one of server, worker/);
  });
});
