// `npm run bench:bundle`: the signed-in home route's JavaScript as Chromium loads it, gzipped
// (level 9 over each body as received), per file and in total, for an English and a Simplified
// Chinese account: issue 35's figure. It builds the client as `npm start` serves it into
// dist/bench-bundle (`--no-build` reuses that build), then runs the budget's browser test
// (test/e2e/first-load-bundle.test.ts) against it, so the bench and the budget measure one and
// the same thing, and prints what that test measured.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DIST = 'dist/bench-bundle';
const LANGUAGES = ['en', 'zh-CN'];
const node = process.execPath;

function run(args: string[], env: Record<string, string>): void {
  const done = spawnSync(node, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'inherit' });
  if (done.status !== 0) throw new Error(`${args.join(' ')} failed`);
}

if (!process.argv.includes('--no-build') || !fs.existsSync(path.join(ROOT, DIST, 'index.html'))) {
  run(['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { MARGIN_CLIENT_DIST: DIST });
}

const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'margin-bench-bundle-'));
try {
  run(['node_modules/vitest/vitest.mjs', 'run', 'test/e2e/first-load-bundle.test.ts', '--silent'], {
    MARGIN_CLIENT_DIST: DIST,
    BUNDLE_REPORT_DIR: reports,
  });
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1).padStart(6)} KB`;
  for (const language of LANGUAGES) {
    const scripts: { url: string; gzipBytes: number }[] = JSON.parse(
      fs.readFileSync(path.join(reports, `${language}.json`), 'utf8'),
    );
    const total = scripts.reduce((sum, s) => sum + s.gzipBytes, 0);
    console.log(`\nhome route, signed in, ${language}: ${scripts.length} files`);
    for (const s of scripts) console.log(`${kb(s.gzipBytes)}  ${s.url}`);
    console.log(`${kb(total)}  total (gzip -9 of each body as Chromium received it)`);
  }
} finally {
  fs.rmSync(reports, { recursive: true, force: true });
}
