// The layout's import table (who may import what) is a lint rule: biome.json's per-folder
// `noRestrictedImports` overrides. These tests drop a probe file into each guarded folder, run
// `npm run lint`'s command on the probes alone, and expect the forbidden imports (and only those)
// to be reported; the probes are removed whatever happens.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const RULE = 'lint/style/noRestrictedImports';
/** How long one lint run may take; the tests that run it wait longer, so a slow lint fails as itself. */
const LINT_TIMEOUT_MS = 30_000;
const LINT_TEST_TIMEOUT_MS = LINT_TIMEOUT_MS + 15_000;

/** `npm run lint`'s first command (`biome check .`) with the given paths in place of `.`, reporting as JSON. */
function lint(paths: string[]): { status: number | null; diagnostics: Diagnostic[]; output: string } {
  const scripts: string = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.lint;
  const script = scripts.split('&&')[0] ?? '';
  const [tool, ...args] = script.split(/\s+/).filter((arg) => arg !== '.');
  const result = spawnSync(
    path.join(root, 'node_modules/.bin', tool!),
    [...args, '--reporter=json', '--max-diagnostics=none', ...paths],
    {
      cwd: root,
      encoding: 'utf8',
      timeout: LINT_TIMEOUT_MS,
    },
  );
  // A lint that could not start, or was killed (by the timeout or otherwise), has no report to read.
  if (result.error) throw new Error(`lint did not finish: ${result.error.message}\n${result.stderr ?? ''}`);
  if (result.signal) throw new Error(`lint was stopped by ${result.signal}\n${result.stderr}`);
  const output = result.stdout + result.stderr;
  let report: { diagnostics: Diagnostic[] };
  try {
    report = JSON.parse(result.stdout);
  } catch {
    throw new Error(`lint (exit ${result.status}) did not report JSON:\n${output}`);
  }
  return { status: result.status, diagnostics: report.diagnostics, output };
}

interface Diagnostic {
  category: string;
  severity: string;
  message: string;
  location: { path: string; start: { line: number } };
}

interface Probe {
  /** Where the probe goes, relative to the repository; the process id keeps parallel runs apart. */
  file: string;
  /** One import a line; the lines named in `forbidden` must be reported, the others not. */
  lines: string[];
  forbidden: number[];
}

let probes = 0;
/** A probe in `folder`; a folder may hold several, each its own file. */
const probe = (folder: string, lines: string[], forbidden: number[]): Probe => ({
  file: `${folder}/__layer_probe_${process.pid}_${probes++}.ts`,
  lines,
  forbidden,
});

const PROBES: Probe[] = [
  probe(
    'src',
    [
      "import { loadConfig } from '../server/config.ts';",
      "import type { RunningWorkers } from '../jobs/workers.ts';",
      "import { AppError } from './errors.ts';",
    ],
    [1, 2],
  ),
  probe(
    'client',
    [
      "import { createApp } from '../server/app.ts';",
      "import type { Context } from '../server/trpc/context.ts';",
      "import type { AppRouter } from '../server/trpc/app.router.ts';",
      "import { AppError } from '../src/errors.ts';",
    ],
    [1, 2],
  ),
  probe(
    'jobs',
    [
      "import { publicProcedure } from '../server/trpc/init.ts';",
      "import { createApp } from '../server/app.ts';",
      "import { oidcRoutes } from '../server/http/oidc.routes.ts';",
      "import { runServer } from '../server/launcher.ts';",
      "import { TRPCError } from '@trpc/server';",
      "import { createCallerFactory } from './workers.ts';",
      "import type { AppDeps } from '../server/deps.ts';",
      "import { sweepStaleClips } from '../server/domain/notes/sweep.ts';",
      "import { QUEUES } from '../src/jobs.ts';",
    ],
    [1, 2, 3, 4, 5, 6],
  ),
  probe(
    'server/domain',
    [
      "import { router } from '../trpc/init.ts';",
      "import { oidcRoutes } from '../http/oidc.routes.ts';",
      "import { startWorkers } from '../../jobs/workers.ts';",
      "import { createApp } from '../app.ts';",
      "import { clock } from '../clock.ts';",
      "import { AppError } from '../../src/errors.ts';",
    ],
    [1, 2, 3, 4],
  ),
  probe(
    'server/trpc',
    [
      "import { openapiRouter } from '../openapi/router.ts';",
      "import { syncRoutes } from '../sync/routes.ts';",
      "import { startWorkers } from '../../jobs/workers.ts';",
      "import { listNotes } from '../domain/notes/notes.service.ts';",
    ],
    [1, 2, 3],
  ),
  probe(
    'server',
    ["import { startWorkers } from '../jobs/workers.ts';", "import { createApp } from './app.ts';"],
    [1],
  ),
  // The domain may import its own folders, sync/ and openapi/ among them, at every depth; the
  // fronts and server/web of the same names one level up stay out of reach.
  probe(
    'server/domain',
    [
      "import { queueChangedPushes } from './sync/push/push.service.ts';",
      "import { authenticateApiToken } from './openapi/api-tokens.ts';",
      "import { syncRoutes } from '../sync/index.ts';",
      "import { openApiRoutes } from '../openapi/index.ts';",
      "import { jsonBody } from '../web/json-body.ts';",
      "import { runServer } from '../launcher.ts';",
    ],
    [3, 4, 5, 6],
  ),
  probe(
    'server/domain/notes',
    [
      "import { renderNotes } from '../sync/templates/render.ts';",
      "import { onceByKey } from '../openapi/idempotency.ts';",
      "import { clock } from '../../clock.ts';",
      "import { AppError } from '../../../src/errors.ts';",
      "import { syncRoutes } from '../../sync/index.ts';",
      "import { openApiRoutes } from '../../openapi/index.ts';",
      "import { router } from '../../trpc/init.ts';",
      "import { oidcRoutes } from '../../http/oidc.routes.ts';",
      "import { publicOrigin } from '../../web/public-origin.ts';",
      "import { createApp } from '../../app.ts';",
      "import { startWorkers } from '../../../jobs/workers.ts';",
      "import { syncRoutes as again } from '../../../server/sync/index.ts';",
      "import express from 'express';",
    ],
    [5, 6, 7, 8, 9, 10, 11, 12, 13],
  ),
  probe(
    'server/domain/sync/push',
    [
      "import { renderNotes } from '../templates/render.ts';",
      "import { listNotes } from '../../notes/notes.service.ts';",
      "import { syncRoutes } from '../../../sync/index.ts';",
      "import { openApiRoutes } from '../../../openapi/index.ts';",
      "import { router } from '../../../trpc/init.ts';",
      "import { startWorkers } from '../../../../jobs/workers.ts';",
    ],
    [3, 4, 5, 6],
  ),
  // The four fronts never import each other; all of them may import server/web and the domain.
  probe(
    'server/http',
    [
      "import { requestContext } from '../trpc/context.ts';",
      "import { openApiRoutes } from '../openapi/index.ts';",
      "import { syncRoutes } from '../sync/index.ts';",
      "import { sessionToken } from '../web/session-cookie.ts';",
      "import { findSignedIn } from '../domain/auth/session.service.ts';",
    ],
    [1, 2, 3],
  ),
  probe(
    'server/trpc',
    [
      "import { oidcRoutes } from '../http/oidc.routes.ts';",
      "import { publicOrigin } from '../web/public-origin.ts';",
    ],
    [1],
  ),
  probe(
    'server/openapi/operations',
    [
      "import { syncRoutes } from '../../sync/index.ts';",
      "import { signedInUser } from '../../http/signed-in.ts';",
      "import { router } from '../../trpc/init.ts';",
      "import { jsonBody } from '../../web/json-body.ts';",
      "import type { Operation } from '../operation.ts';",
    ],
    [1, 2, 3],
  ),
  probe(
    'server/sync',
    [
      "import { authorizationToken } from '../web/authorization.ts';",
      "import { signedInUser } from '../http/signed-in.ts';",
      "import { openApiRoutes } from '../openapi/index.ts';",
      "import { router } from '../trpc/init.ts';",
    ],
    [2, 3, 4],
  ),
  // What the fronts share imports none of them.
  probe(
    'server/web',
    [
      "import type { AppConfig } from '../config.ts';",
      "import type { NewSession } from '../domain/auth/session.service.ts';",
      "import type { Context } from '../trpc/context.ts';",
      "import { signedInUser } from '../http/signed-in.ts';",
      "import { syncRoutes } from '../sync/index.ts';",
      "import { openApiRoutes } from '../openapi/index.ts';",
    ],
    [3, 4, 5, 6],
  ),
  probe(
    'client/components',
    [
      "import { useTheme } from '../features/theme/theme-store.ts';",
      "import { LoginPage } from '../pages/LoginPage.tsx';",
      "import { notify } from '../lib/notify.ts';",
      "import { useForm } from './form.tsx';",
      "import { AppError } from '../../src/errors.ts';",
    ],
    [1, 2],
  ),
  probe(
    'client/components/icons',
    [
      "import { session } from '../../features/auth/session.ts';",
      "import { CopyButton } from '../CopyButton.tsx';",
    ],
    [1],
  ),
  // The extension and the plugins import src/ and their own files only.
  probe(
    'extension',
    [
      "import { createApp } from '../server/app.ts';",
      "import { trpc } from '../client/trpc.ts';",
      "import { pull } from '../plugins/core/pull.ts';",
      "import pkg from '../package.json' with { type: 'json' };",
      "import { CoreType } from '../src/enums.ts';",
      "import { store } from './lib/store.ts';",
    ],
    [1, 2, 3, 4],
  ),
  probe(
    'extension/popup',
    [
      "import { EXTENSION_PACKAGES } from '../../server/domain/system/extension-packages.ts';",
      "import { writeZip } from '../../plugins/build.ts';",
      "import { messages } from '../lib/messages.ts';",
      "import { CoreType } from '../../src/enums.ts';",
    ],
    [1, 2],
  ),
  probe(
    'plugins',
    [
      "import { writeZip } from '../extension/build.ts';",
      "import { syncRoutes } from '../server/sync/index.ts';",
      "import type { Highlight } from '../src/schemas/highlights.ts';",
      "import { pull } from './core/pull.ts';",
    ],
    [1, 2],
  ),
  probe(
    'plugins/obsidian',
    [
      "import { background } from '../../extension/background.ts';",
      "import { migrate } from '../../migrations/index.ts';",
      "import { pull } from '../core/pull.ts';",
      "import { confirmPagePath } from '../../src/rules/device-flow.ts';",
    ],
    [1, 2],
  ),
];

/**
 * The deepest folder under each guarded folder that biome.json's overrides are written for: a
 * relative import means a different folder at each depth, so the rules name each depth. A file
 * deeper than this needs its own override first.
 */
const DEEPEST_RULED: Record<string, number> = {
  'server/domain': 2,
  'server/trpc': 1,
  'server/openapi': 1,
  'server/sync': 1,
  'server/http': 1,
  'server/web': 1,
  'client/components': 1,
  extension: 1,
  plugins: 1,
};

/** The folder depth (0: the folder itself) of every source file under `folder`. */
function sourceDepths(folder: string): { file: string; depth: number }[] {
  return fs
    .readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|tsx|js|mjs)$/.test(file) && !file.split(path.sep).includes('node_modules'))
    .map((file) => ({ file: `${folder}/${file}`, depth: file.split(path.sep).length - 1 }));
}

describe('the layout import table (biome.json, noRestrictedImports)', () => {
  test(
    'the tree as it is breaks none of it',
    () => {
      const result = lint(['src', 'client', 'server', 'jobs', 'extension', 'plugins']);
      expect(result.diagnostics.filter((d) => d.category === RULE)).toEqual([]);
    },
    LINT_TEST_TIMEOUT_MS,
  );

  test(
    'a forbidden import in each guarded folder fails lint, naming the rule; allowed ones pass',
    () => {
      const written: string[] = [];
      try {
        for (const { file, lines } of PROBES) {
          fs.writeFileSync(path.join(root, file), `${lines.join('\n')}\n`, { flag: 'wx' });
          written.push(file);
        }
        const result = lint(written);
        expect(result.status, result.output).not.toBe(0);
        // An error, not a warning: each of these alone fails `npm run lint`.
        const severities = new Set(
          result.diagnostics.filter((d) => d.category === RULE).map((d) => d.severity),
        );
        expect([...severities]).toEqual(['error']);
        for (const { file, forbidden } of PROBES) {
          const reported = result.diagnostics
            .filter((d) => d.category === RULE && d.location.path === file)
            .map((d) => d.location.start.line)
            .sort((a, b) => a - b);
          expect({ file, lines: reported }).toEqual({ file, lines: forbidden });
        }
      } finally {
        for (const file of written) fs.rmSync(path.join(root, file), { force: true });
      }
    },
    LINT_TEST_TIMEOUT_MS,
  );

  test('no source file lies deeper than the depths the rules are written for', () => {
    for (const [folder, deepest] of Object.entries(DEEPEST_RULED)) {
      const tooDeep = sourceDepths(folder).filter(({ depth }) => depth > deepest);
      expect({ folder, tooDeep }).toEqual({ folder, tooDeep: [] });
    }
  });

  test('the launcher is the one server module that imports the workers, next to the app', () => {
    const launcher = fs.readFileSync(path.join(root, 'server/launcher.ts'), 'utf8');
    expect(launcher).toContain("import('../jobs/workers.ts')");
    expect(launcher).toContain("import('./app.ts')");
  });
});

// Fronts are parse → authorise → call one service → shape the answer: they never import server/db
// (lint/fronts-never-import-db.grit, run by biome.json on the front folders) and never query the
// database themselves (read from their files here).
const FRONTS = ['server/trpc', 'server/openapi', 'server/sync', 'server/http', 'server/web'];
const FRONT_RULE = 'plugin';

/** A front probe at `folder`, whose relative imports climb `up` folders to server/. */
function frontProbe(folder: string, up: string): Probe {
  return probe(
    folder,
    [
      `import type { User } from '${up}db/entities/index.ts';`,
      `import { Note } from '${up}db/entities/note.entity.ts';`,
      `import { preparedRows } from '${up}db/prepared.ts';`,
      `export type { Session } from '${up}db/entities/index.ts';`,
      `const orm = await import('${up}db/orm.ts');`,
      `import { asDate } from '${up}../server/db/row.ts';`,
      `import type { User as Account } from '${up}domain/account/user.ts';`,
      `import { listNotes } from '${up}domain/notes/note-list.ts';`,
      `import { clock } from '${up}clock.ts';`,
    ],
    [1, 2, 3, 4, 5, 6],
  );
}

const FRONT_PROBES: Probe[] = [
  ...FRONTS.map((folder) => frontProbe(folder, '../')),
  frontProbe('server/openapi/operations', '../../'),
  // The domain reads the database: the rule is the fronts' only.
  probe('server/domain/notes', ["import { Note } from '../../db/entities/index.ts';"], []),
];

/** What querying the database looks like in a file: the ORM's query methods, raw SQL, knex. */
const QUERIES: { what: string; pattern: RegExp }[] = [
  {
    what: 'an EntityManager query or write',
    pattern:
      /\b(?:em|tem|tx)\.(?:find\w*|count\w*|execute|nativeInsert|nativeUpdate|nativeDelete|upsert\w*|insert\w*|persist\w*|flush|remove|getReference|qb)\(/,
  },
  { what: 'raw SQL or a query builder', pattern: /\.(?:execute|createQueryBuilder|getConnection|getKnex)\(/ },
  { what: 'a value imported from the ORM', pattern: /^import\s+(?!type\s)[^;]*from\s+'@mikro-orm\//m },
  { what: 'knex', pattern: /from\s+'knex'|require\('knex'\)/ },
];

/**
 * Front files that still query the database, each with why; a file leaves this list when its
 * queries move into a service (the sync front's lease, counts and note actions did).
 */
const QUERYING_FRONTS: Record<string, string> = {};

describe('fronts never import entities or run SQL', () => {
  test(
    'the fronts as they are import nothing of server/db',
    () => {
      const result = lint(FRONTS);
      expect(result.diagnostics.filter((d) => d.category === FRONT_RULE)).toEqual([]);
    },
    LINT_TEST_TIMEOUT_MS,
  );

  test(
    'a front importing server/db (an entity, the ORM, a SQL helper; type-only, re-exported or dynamic) fails lint; domain types and services pass',
    () => {
      const written: string[] = [];
      try {
        for (const { file, lines } of FRONT_PROBES) {
          fs.writeFileSync(path.join(root, file), `${lines.join('\n')}\n`, { flag: 'wx' });
          written.push(file);
        }
        const result = lint(written);
        expect(result.status, result.output).not.toBe(0);
        const reports = result.diagnostics.filter((d) => d.category === FRONT_RULE);
        expect(new Set(reports.map((d) => d.severity))).toEqual(new Set(['error']));
        for (const { file, forbidden } of FRONT_PROBES) {
          const lines = reports
            .filter((d) => d.location.path === file)
            .map((d) => d.location.start.line)
            .sort((a, b) => a - b);
          expect({ file, lines }).toEqual({ file, lines: forbidden });
        }
      } finally {
        for (const file of written) fs.rmSync(path.join(root, file), { force: true });
      }
    },
    LINT_TEST_TIMEOUT_MS,
  );

  test('no front file queries the database: no EntityManager query, raw SQL, query builder or knex', () => {
    const found: { file: string; what: string }[] = [];
    for (const folder of FRONTS) {
      for (const { file } of sourceDepths(folder)) {
        if (file.includes('__layer_probe_')) continue;
        const text = fs.readFileSync(path.join(root, file), 'utf8');
        for (const { what, pattern } of QUERIES) if (pattern.test(text)) found.push({ file, what });
      }
    }
    const unexpected = found.filter(({ file }) => !(file in QUERYING_FRONTS));
    expect(unexpected).toEqual([]);
    // A listed file that no longer queries leaves the list.
    const stale = Object.keys(QUERYING_FRONTS).filter((file) => !found.some((f) => f.file === file));
    expect(stale).toEqual([]);
  });

  test('the query check sees a query where one is written', () => {
    const samples = [
      'const note = await em.findOne(Note, { id });',
      "await ctx.em.execute('select 1');",
      'await tem.nativeUpdate(Note, { id }, { title });',
      'const qb = deps.orm.em.fork().createQueryBuilder(Note);',
      'const knex = em.getConnection().getKnex();',
      "import { raw } from '@mikro-orm/postgresql';",
      "import knex from 'knex';",
    ];
    for (const sample of samples)
      expect({ sample, seen: QUERIES.some(({ pattern }) => pattern.test(sample)) }).toEqual({
        sample,
        seen: true,
      });
    const fine = [
      "import type { EntityManager } from '@mikro-orm/postgresql';",
      'const em = deps.orm.em.fork();',
      "express.raw({ type: 'multipart/form-data' });",
      "const key = issues.map((i) => i.message).find((m) => m.startsWith('errors.'));",
    ];
    for (const sample of fine)
      expect({ sample, seen: QUERIES.some(({ pattern }) => pattern.test(sample)) }).toEqual({
        sample,
        seen: false,
      });
  });
});
