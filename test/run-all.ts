// `npm test`: every check the project has, in order — types, lint and format, unused code
// (knip), the production client build, then every vitest suite (unit, API, jobs, browser).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensurePrerequisites } from './prerequisites.ts';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name: string) => path.join(root, 'node_modules/.bin', name);

function step(title: string, command: string, args: string[]): void {
  const started = performance.now();
  console.log(`\n▶ ${title}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`✗ ${title} failed after ${seconds} s`);
    process.exit(result.status ?? 1);
  }
  console.log(`✓ ${title} (${seconds} s)`);
}

const started = performance.now();
try {
  await ensurePrerequisites();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
step('typecheck', bin('tsc'), ['-p', 'tsconfig.json']);
step('lint and format', bin('biome'), ['check', '.']);
step('unused files, exports and dependencies', bin('knip'), []);
step('client build', bin('vite'), ['build', '--logLevel', 'warn']);
step('tests', bin('vitest'), ['run', ...process.argv.slice(2)]);
console.log(`\nall checks passed in ${((performance.now() - started) / 1000).toFixed(0)} s`);
