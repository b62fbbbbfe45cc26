import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/helpers/sequencer.ts';

// One runner for every suite. Each API/job test file gets its own PostgreSQL database
// (test/helpers/db.ts), so files can run in parallel on the machine's two cores.
export default defineConfig({
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    exclude: ['test/bench/**', 'node_modules/**'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // A worker runs file after file in one process, so the server's modules are imported once
    // per worker rather than once per file (1–3 s each); test/helpers/file-setup.ts sets back
    // what a file may change for the whole process.
    isolate: false,
    setupFiles: ['test/helpers/file-setup.ts'],
    // The longest files first, so both workers end together.
    sequence: { sequencer: LongestFirstSequencer },
    testTimeout: 30_000,
    // expect.poll waits for a state; its 1 s default is a timing threshold on a loaded machine.
    expect: { poll: { timeout: 15_000 } },
    hookTimeout: 120_000,
    // The slowest files and where their time went (import, hooks, tests), printed after the run.
    reporters: ['default', './test/helpers/timing-reporter.ts'],
  },
});
