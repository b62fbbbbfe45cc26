// The README's quick start, as a new user runs it on a fresh clone: the install command, then
// the run command; the real app answers, sign-up works, and a signal stops everything.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  copyTreeLikeAClone,
  freePorts,
  portAnswers,
  processesUnder,
  RunningCommand,
  runToEnd,
  userShellEnv,
} from '../helpers/processes.ts';
import { waitFor } from '../helpers/wait.ts';

const root = path.resolve(import.meta.dirname, '../..');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');

/** The quick start's first line: `INSTALL && RUN   # …`. */
function quickStartCommands(): { install: string[]; run: string[] } {
  const line = readme.match(/## Quick start\s+```sh\n([^\n]+)\n/)?.[1] ?? '';
  const [install = [], run = []] = line
    .replace(/#.*$/, '')
    .split('&&')
    .map((part) => part.trim().split(/\s+/));
  return { install, run };
}

let dir: string;
let ports: { http: number; pg: number; redis: number };

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'margin-clone-'));
  // As a clone would be (mkdtemp makes it 0700): run as root, PostgreSQL's own user must enter it.
  fs.chmodSync(dir, 0o755);
  copyTreeLikeAClone(dir);
  const [http = 0, pg = 0, redis = 0] = await freePorts(3);
  ports = { http, pg, redis };
});

afterAll(() => {
  for (const pid of processesUnder(dir)) process.kill(pid, 'SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Ports only, so the run cannot collide with the rest of the suite; nothing else is configured. */
function env() {
  return userShellEnv({
    PORT: String(ports.http),
    EMBEDDED_PG_PORT: String(ports.pg),
    // Nothing answers there, so the launcher starts (and must stop) a redis-server of its own.
    REDIS_URL: `redis://127.0.0.1:${ports.redis}`,
  });
}

function start(): RunningCommand {
  const [command = 'npm', ...args] = quickStartCommands().run;
  return new RunningCommand(command, args, { cwd: dir, env: env() });
}

const base = () => `http://127.0.0.1:${ports.http}`;

async function trpc(
  procedure: string,
  input: unknown,
  cookie = '',
): Promise<{ status: number; body: unknown; cookie: string }> {
  const response = await fetch(`${base()}/trpc/${procedure}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ json: input }),
  });
  const setCookie = response.headers.get('set-cookie') ?? '';
  return { status: response.status, body: await response.json(), cookie: setCookie.split(';')[0] ?? '' };
}

async function me(cookie: string): Promise<{ email: string | null } | null> {
  const response = await fetch(`${base()}/trpc/auth.me`, { headers: { cookie } });
  return ((await response.json()) as { result: { data: { json: { email: string | null } | null } } }).result
    .data.json;
}

/** The code the outbox holds for `email` (no SMTP_URL: mail goes to DATA_DIR/outbox). */
function mailedCode(email: string): Promise<string> {
  const outbox = path.join(dir, 'data/outbox');
  return waitFor(async () => {
    if (!fs.existsSync(outbox)) return undefined;
    for (const file of fs.readdirSync(outbox).filter((f) => f.includes(email))) {
      const code = fs.readFileSync(path.join(outbox, file), 'utf8').match(/\b\d{6}\b/)?.[0];
      if (code) return code;
    }
    return undefined;
  });
}

/**
 * Sends `signal` to the process the run command started, as a process manager or Ctrl-C does:
 * within the 10 s a process manager waits before it kills, the app stops cleanly and leaves no
 * process, port or PostgreSQL lock behind.
 */
async function stopCleanly(app: RunningCommand, signal: NodeJS.Signals): Promise<void> {
  const { ms } = await app.stop(signal);
  expect(ms).toBeLessThan(10_000);
  expect(app.output).toContain('"msg":"stopped","clean":true');
  expect(processesUnder(dir)).toEqual([]);
  for (const port of [ports.http, ports.pg, ports.redis]) expect(await portAnswers(port)).toBe(false);
  // The embedded PostgreSQL shut down cleanly: it removes its lock file then.
  expect(fs.existsSync(path.join(dir, 'data/pg/postmaster.pid'))).toBe(false);
}

describe("the README's quick start on a fresh clone", () => {
  test('install, run: the real app, sign-up, a clean stop; a second start keeps the data', async () => {
    const { install } = quickStartCommands();
    expect(install).toEqual(['npm', 'ci']);
    // The install the user runs, from the packages this machine's own install left in npm's
    // cache: without prefer-offline, npm asks the registry again for every cached package's
    // metadata (a lockfile without `resolved` URLs makes it read ~1,000 of them), which took most
    // of this test's time and tested the network rather than the quick start.
    const installed = await runToEnd('npm', install.slice(1), {
      cwd: dir,
      env: { ...env(), npm_config_prefer_offline: 'true' },
    });
    expect(installed.code, installed.output).toBe(0);
    expect(installed.output).not.toMatch(/EBADENGINE|npm warn/i);

    // First start: builds the client, initialises the database, starts Redis.
    let app = start();
    await app.waitForOutput('Margin is ready', 180_000);
    const html = await (await fetch(`${base()}/`)).text();
    expect(html).toMatch(/<div id="root"><\/div>/);
    expect(html).toMatch(/<script type="module" async crossorigin src="\/assets\/[\w.-]+\.js"><\/script>/);
    expect(html).not.toContain('not built');
    const health = await fetch(`${base()}/healthz`);
    expect(health.status).toBe(200);

    const email = 'reader@example.test';
    const password = 'quiet-garden-42';
    expect((await trpc('auth.sendCode', { email, purpose: 'register' })).status).toBe(200);
    const code = await mailedCode(email);
    const registered = await trpc('auth.register', { email, code, password, repeatPassword: password });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    expect((await me(registered.cookie))?.email).toBe(email);

    await stopCleanly(app, 'SIGTERM');

    // Second start: the same data, no build, no initdb.
    app = start();
    await app.waitForOutput('Margin is ready', 60_000);
    expect(app.output).not.toMatch(/building the client|initialising embedded PostgreSQL/);
    const login = await trpc('auth.login', { email, password });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    expect((await me(login.cookie))?.email).toBe(email);

    await stopCleanly(app, 'SIGINT');
    // Logs are JSON lines: no terminal colour codes when not on a TTY.
    expect(app.output).not.toContain('\u001b[');
  }, 400_000);
});
