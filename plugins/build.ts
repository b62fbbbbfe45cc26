// Builds the note-tool plugins: typechecks plugins/ (its own tsconfig), bundles each shell with
// esbuild, and writes an unpacked folder and a zip for each under dist/plugins/.
//   npm run build:plugins [-- --out <dir>] [-- --no-typecheck]
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import yazl from 'yazl';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PLUGINS = join(ROOT, 'plugins');
// A fixed time in every zip entry: the same sources give the same zip.
const ZIP_MTIME = new Date('2026-01-01T00:00:00Z');
/** The folder each zip unpacks to: Obsidian's plugin id, and Logseq's plugin id. */
const PLUGIN_FOLDER = 'margin-sync';

interface Target {
  zip: string;
  entry: string;
  format: 'cjs' | 'iife';
  /** File name in the package → its content. */
  files(bundle: string): Promise<Record<string, string>>;
}

const TARGETS: Record<'obsidian' | 'logseq', Target> = {
  obsidian: {
    zip: 'margin-obsidian',
    entry: 'obsidian/main.ts',
    // Obsidian loads main.js as CommonJS and provides `obsidian` to require().
    format: 'cjs',
    // What Obsidian's community store and BRAT take from a release (plugins/README.md).
    files: async (bundle) => ({
      'main.js': bundle,
      'manifest.json': await readFile(join(PLUGINS, 'obsidian/manifest.json'), 'utf8'),
      ...(await readFile(join(PLUGINS, 'obsidian/styles.css'), 'utf8').then(
        (styles) => ({ 'styles.css': styles }),
        () => ({}),
      )),
    }),
  },
  logseq: {
    zip: 'margin-logseq',
    entry: 'logseq/main.ts',
    // Logseq wraps a .js entry in a page that loads its SDK first: a plain script.
    format: 'iife',
    files: async (bundle) => ({
      'index.js': bundle,
      'package.json': await readFile(join(PLUGINS, 'logseq/plugin.json'), 'utf8'),
    }),
  },
};

function typecheck(): void {
  const tsc = join(ROOT, 'node_modules/.bin/tsc');
  const result = spawnSync(tsc, ['-p', join(PLUGINS, 'tsconfig.json'), '--noEmit'], { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`plugins/ does not typecheck:\n${result.stdout}${result.stderr}${result.error ?? ''}`);
  }
}

async function bundle(target: Target): Promise<string> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [join(PLUGINS, target.entry)],
    bundle: true,
    write: false,
    format: target.format,
    platform: 'browser',
    target: 'es2022',
    external: ['obsidian', 'electron', '@codemirror/*', '@lezer/*'],
    legalComments: 'none',
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** Writes `files` into a zip (under `folder` when given) that is the same for the same files. */
export async function writeZip(
  path: string,
  files: Record<string, string | Buffer>,
  folder = '',
): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) {
    zip.addBuffer(Buffer.from(content), folder ? `${folder}/${name}` : name, { mtime: ZIP_MTIME });
  }
  zip.end();
  const out = createWriteStream(path);
  zip.outputStream.pipe(out);
  await once(out, 'close');
}

/** The fields Obsidian's community store requires of a plugin's manifest.json. */
const OBSIDIAN_MANIFEST_FIELDS = {
  id: 'string',
  name: 'string',
  version: 'string',
  minAppVersion: 'string',
  description: 'string',
  author: 'string',
  isDesktopOnly: 'boolean',
} as const;

/**
 * What keeps Obsidian (and BRAT) from installing this release: a missing manifest field, a
 * version that is not x.y.z, or a versions.json that does not map it to the manifest's
 * minAppVersion (Obsidian picks the newest version whose minAppVersion the app meets from it).
 */
export function obsidianReleaseProblems(
  manifest: Record<string, unknown>,
  versions: Record<string, unknown>,
): string[] {
  const problems = Object.entries(OBSIDIAN_MANIFEST_FIELDS)
    .filter(([field, type]) => typeof manifest[field] !== type)
    .map(([field, type]) => `manifest.json: ${field} must be a ${type}`);
  if (typeof manifest.version === 'string' && !/^\d+\.\d+\.\d+$/.test(manifest.version))
    problems.push(`manifest.json: version ${manifest.version} is not x.y.z`);
  if (typeof manifest.version === 'string' && versions[manifest.version] !== manifest.minAppVersion)
    problems.push(
      `versions.json: ${manifest.version} must map to the manifest's minAppVersion ${String(manifest.minAppVersion)}`,
    );
  return problems;
}

async function checkVersions(): Promise<void> {
  const read = async (path: string) =>
    JSON.parse(await readFile(join(PLUGINS, path), 'utf8')) as Record<string, unknown>;
  const [obsidian, versions, logseq] = await Promise.all([
    read('obsidian/manifest.json'),
    read('obsidian/versions.json'),
    read('logseq/plugin.json'),
  ]);
  const problems = obsidianReleaseProblems(obsidian, versions);
  if (obsidian.version !== logseq.version)
    problems.push(`plugin versions differ: obsidian ${obsidian.version}, logseq ${logseq.version}`);
  if (problems.length) throw new Error(problems.join('\n'));
}

/** Builds both plugins into `outDir`; returns the zips' paths. */
export async function buildPlugins(outDir = join(ROOT, 'dist/plugins'), options = { typecheck: true }) {
  if (options.typecheck) typecheck();
  await checkVersions();
  await mkdir(outDir, { recursive: true });
  const zips: Record<string, string> = {};
  for (const [tool, target] of Object.entries(TARGETS)) {
    const files = await target.files(await bundle(target));
    const folder = join(outDir, target.zip);
    await rm(folder, { recursive: true, force: true });
    await mkdir(folder, { recursive: true });
    for (const [name, content] of Object.entries(files)) await writeFile(join(folder, name), content);
    zips[tool] = join(outDir, `${target.zip}.zip`);
    await writeZip(zips[tool], files, PLUGIN_FOLDER);
  }
  return zips;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const out = args.includes('--out') ? args[args.indexOf('--out') + 1] : undefined;
  const zips = await buildPlugins(out, { typecheck: !args.includes('--no-typecheck') });
  for (const path of Object.values(zips)) console.log(`wrote ${path}`);
}
