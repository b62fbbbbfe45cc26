import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { EXTENSION_DIST_DIR, PLUGIN_DIST_DIR } from './domain/system/built-packages.ts';
import { StartupError } from './lifecycle.ts';
import { log } from './log.ts';
import { CLIENT_DIST } from './static.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

function newestChange(entry: string): number {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestChange(path.join(entry, child)));
  return newest;
}

export type BuildState = 'missing' | 'stale' | 'fresh';

/**
 * Like make: missing when an output is, stale when any input (a file or a folder, relative to
 * `root`) is newer than the oldest output.
 */
function buildState(root: string, inputs: readonly string[], outputs: readonly string[]): BuildState {
  let oldestOutput = Number.POSITIVE_INFINITY;
  for (const output of outputs) {
    const built = fs.statSync(output, { throwIfNoEntry: false });
    if (!built) return 'missing';
    oldestOutput = Math.min(oldestOutput, built.mtimeMs);
  }
  const sources = Math.max(...inputs.map((input) => newestChange(path.join(root, input))));
  return sources > oldestOutput ? 'stale' : 'fresh';
}

/** What the client build is made from: when any of it is newer than its index.html, it is stale. */
const CLIENT_INPUTS = ['client', 'src', 'vite.config.ts', 'tsconfig.json', 'package-lock.json'];

export function clientBuildState(root = ROOT, distDir = CLIENT_DIST): BuildState {
  return buildState(root, CLIENT_INPUTS, [path.join(distDir, 'index.html')]);
}

class ClientBuildError extends StartupError {}

/** One build `npm start` runs when its outputs are missing or older than its inputs. */
interface Build {
  name: string;
  /** A script of the project's, run by this Node, and its arguments. */
  command: readonly string[];
  inputs: readonly string[];
  outputs: readonly string[];
  /** Without it the app cannot serve at all (the client); the others only offer downloads. */
  required: boolean;
}

const BUILDS: readonly Build[] = [
  {
    name: 'the client',
    command: ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'],
    inputs: CLIENT_INPUTS,
    outputs: [path.join(CLIENT_DIST, 'index.html')],
    required: true,
  },
  {
    name: 'the note-tool plugins',
    // The type check is `npm run typecheck`'s and CI's job; a start only needs the bundles.
    command: ['plugins/build.ts', '--no-typecheck'],
    inputs: ['plugins', 'src', 'package-lock.json'],
    outputs: ['margin-obsidian.zip', 'margin-logseq.zip'].map((zip) => path.join(PLUGIN_DIST_DIR, zip)),
    required: false,
  },
  {
    name: 'the browser extension',
    command: ['extension/build.ts', '--no-typecheck'],
    inputs: ['extension', 'src', 'plugins/build.ts', 'package-lock.json'],
    outputs: ['margin-chrome.zip', 'margin-firefox.zip'].map((zip) => path.join(EXTENSION_DIST_DIR, zip)),
    required: false,
  },
];

function runBuild(build: Build, root: string): void {
  const state = buildState(root, build.inputs, build.outputs);
  if (state === 'fresh') return;
  const started = performance.now();
  log.info(
    state === 'missing'
      ? `building ${build.name} (first start)`
      : `rebuilding ${build.name} (sources changed)`,
  );
  const result = spawnSync(process.execPath, build.command, {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (result.status !== 0) {
    const output = `${result.stdout}${result.stderr}${result.error ?? ''}`;
    if (build.required) throw new ClientBuildError(`Building ${build.name} failed:\n${output}`);
    // The app runs without them: their pages say the package is not built.
    log.warn(`building ${build.name} failed; its downloads are not offered`, { output });
    return;
  }
  log.info(`${build.name} built`, { ms: Math.round(performance.now() - started) });
}

/**
 * The single-machine launcher serves the real app on a fresh clone: it builds the client, the
 * plugins and the extension when a build is missing or older than its sources (a `git pull`
 * since), with the project's Vite and esbuild. A warm start checks the times and builds nothing.
 */
export function ensureBuilds(root = ROOT): void {
  if (!fs.existsSync(path.join(root, 'node_modules/vite/bin/vite.js'))) {
    if (clientBuildState(root) === 'fresh') return;
    throw new ClientBuildError(
      'The client is not built and Vite is not installed (installed without dev dependencies?). ' +
        'Run `npm ci` and then `npm run build`, or start from the Docker image.',
    );
  }
  for (const build of BUILDS) runBuild(build, root);
}
