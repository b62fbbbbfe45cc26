import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { StartupError } from './lifecycle.ts';
import { log } from './log.ts';
import { CLIENT_DIST } from './static.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
/** What the client build is made from: when any of it is newer than the build, it is stale. */
const INPUTS = ['client', 'src', 'vite.config.ts', 'tsconfig.json', 'package-lock.json'];

function newestChange(entry: string): number {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestChange(path.join(entry, child)));
  return newest;
}

export type ClientBuildState = 'missing' | 'stale' | 'fresh';

/** Like make: the build is stale when a source is newer than its index.html. */
export function clientBuildState(root = ROOT, distDir = CLIENT_DIST): ClientBuildState {
  const built = fs.statSync(path.join(distDir, 'index.html'), { throwIfNoEntry: false });
  if (!built) return 'missing';
  const sources = Math.max(...INPUTS.map((input) => newestChange(path.join(root, input))));
  return sources > built.mtimeMs ? 'stale' : 'fresh';
}

class ClientBuildError extends StartupError {}

/**
 * The single-machine launcher serves the real app on a fresh clone: it builds the client when
 * the build is missing or older than its sources (a `git pull` since), with the project's Vite.
 */
export function ensureClientBuild(root = ROOT): void {
  const state = clientBuildState(root);
  if (state === 'fresh') return;
  const vite = path.join(root, 'node_modules/vite/bin/vite.js');
  if (!fs.existsSync(vite)) {
    throw new ClientBuildError(
      'The client is not built and Vite is not installed (installed without dev dependencies?). ' +
        'Run `npm ci` and then `npm run build`, or start from the Docker image.',
    );
  }
  const started = performance.now();
  log.info(
    state === 'missing' ? 'building the client (first start)' : 'rebuilding the client (sources changed)',
  );
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (result.status !== 0) {
    throw new ClientBuildError(`Building the client failed:\n${result.stdout}${result.stderr}`);
  }
  log.info('client built', { ms: Math.round(performance.now() - started) });
}
