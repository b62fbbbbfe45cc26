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

/** `npm run lint` (`biome check .`) with the given paths in place of `.`, reporting as JSON. */
function lint(paths: string[]): { status: number | null; diagnostics: Diagnostic[]; output: string } {
  const script: string = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.lint;
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

const probe = (folder: string, lines: string[], forbidden: number[]): Probe => ({
  file: `${folder}/__layer_probe_${process.pid}.ts`,
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
      "import { sessionCookies } from '../server/http/session-cookie.ts';",
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
];

describe('the layout import table (biome.json, noRestrictedImports)', () => {
  test(
    'the tree as it is breaks none of it',
    () => {
      const result = lint(['src', 'client', 'server', 'jobs']);
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

  test('the launcher is the one server module that imports the workers, next to the app', () => {
    const launcher = fs.readFileSync(path.join(root, 'server/launcher.ts'), 'utf8');
    expect(launcher).toContain("import('../jobs/workers.ts')");
    expect(launcher).toContain("import('./app.ts')");
  });
});
