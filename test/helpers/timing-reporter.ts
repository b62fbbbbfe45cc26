// A vitest reporter that says where a run's time went, file by file: the wall time from when the
// file was handed to a worker until it ended, and how much of it was importing the file, its
// hooks (starting servers, browsers, workers) and its tests. `npm test` prints the slowest files
// at the end; `--reporter=./test/helpers/timing-reporter.ts` adds it to any run, and
// MARGIN_TEST_TIMES=<file> also writes every file's figures there as JSON.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

interface FileTiming {
  file: string;
  worker: number;
  startedAt: number;
  wallMs: number;
  importMs: number;
  hooksMs: number;
  testsMs: number;
}

const SHOWN = Number(process.env.MARGIN_TEST_TIMES_SHOWN ?? 20);

export default class TimingReporter implements Reporter {
  private runStarted = performance.now();
  private readonly started = new Map<string, number>();
  private readonly timings: FileTiming[] = [];

  onTestRunStart(): void {
    this.runStarted = performance.now();
  }

  onTestModuleQueued(module: TestModule): void {
    this.started.set(module.moduleId, performance.now());
  }

  onTestModuleEnd(module: TestModule): void {
    const ended = performance.now();
    const startedAt = this.started.get(module.moduleId) ?? ended;
    const diagnostic = module.diagnostic();
    let testsMs = 0;
    for (const test of module.children.allTests()) testsMs += test.diagnostic()?.duration ?? 0;
    this.timings.push({
      file: path.relative(process.cwd(), module.moduleId),
      worker: diagnostic.concurrencyId,
      startedAt: startedAt - this.runStarted,
      wallMs: ended - startedAt,
      importMs: diagnostic.collectDuration + diagnostic.setupDuration + diagnostic.prepareDuration,
      hooksMs: Math.max(0, diagnostic.duration - testsMs),
      testsMs,
    });
  }

  onTestRunEnd(): void {
    const wallMs = performance.now() - this.runStarted;
    const rows = [...this.timings].sort((a, b) => b.wallMs - a.wallMs);
    const s = (ms: number) => (ms / 1000).toFixed(1).padStart(6);
    const total = (key: 'wallMs' | 'importMs' | 'hooksMs' | 'testsMs') =>
      rows.reduce((sum, row) => sum + row[key], 0);
    const lines = [
      '',
      `Slowest test files (seconds; ${rows.length} files, run ${s(wallMs).trim()} s):`,
      '  wall import  hooks  tests  file',
      ...rows
        .slice(0, SHOWN)
        .map((r) => `${s(r.wallMs)} ${s(r.importMs)} ${s(r.hooksMs)} ${s(r.testsMs)}  ${r.file}`),
      `${s(total('wallMs'))} ${s(total('importMs'))} ${s(total('hooksMs'))} ${s(total('testsMs'))}  all files`,
    ];
    console.log(lines.join('\n'));
    const out = process.env.MARGIN_TEST_TIMES;
    if (out) writeFileSync(out, `${JSON.stringify({ wallMs, files: rows }, null, 2)}\n`);
  }
}
