import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { unzip } from '../helpers/zip.ts';

const ROOT = join(import.meta.dirname, '../..');
let out: string;

const unzipFile = async (path: string) => unzip(await readFile(path));

beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'margin-plugins-'));
  // The script as `npm run build:plugins` runs it: the repository's Node, its own typecheck.
  await promisify(execFile)(join(ROOT, 'node_modules/.bin/node'), ['plugins/build.ts', '--out', out], {
    cwd: ROOT,
  });
}, 120_000);
afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

describe('npm run build:plugins', () => {
  test('the Obsidian zip: a CommonJS main.js whose default export is the plugin class, and the manifest', async () => {
    const files = await unzipFile(join(out, 'margin-obsidian.zip'));
    expect([...files.keys()].sort()).toEqual(['margin-sync/main.js', 'margin-sync/manifest.json']);
    const manifest = JSON.parse(files.get('margin-sync/manifest.json')!);
    expect(manifest).toMatchObject({ id: 'margin-sync', version: expect.stringMatching(/^\d+\.\d+\.\d+$/) });

    // Load it the way Obsidian does: CommonJS, with `obsidian` provided to require().
    class Plugin {}
    const module = { exports: {} as Record<string, unknown> };
    const requireStub = (name: string) => {
      if (name === 'obsidian')
        return { Plugin, PluginSettingTab: class {}, Notice: class {}, TFile: class {} };
      throw new Error(`main.js requires ${name}`);
    };
    runInNewContext(files.get('margin-sync/main.js')!, {
      module,
      exports: module.exports,
      require: requireStub,
    });
    const main = module.exports.default as { prototype: unknown };
    expect(main.prototype).toBeInstanceOf(Plugin);
    // The shared schemas come in as types only: zod stays out of the bundle.
    expect(files.get('margin-sync/main.js')).not.toMatch(/ZodError|zod/);
  });

  test('the Logseq zip: a plain script that waits for the host, and its package.json', async () => {
    const files = await unzipFile(join(out, 'margin-logseq.zip'));
    expect([...files.keys()].sort()).toEqual(['margin-sync/index.js', 'margin-sync/package.json']);
    const pkg = JSON.parse(files.get('margin-sync/package.json')!);
    expect(pkg).toMatchObject({ main: 'index.js', logseq: { id: 'margin-sync', main: 'index.js' } });

    const commands: string[] = [];
    let ready: (() => void) | undefined;
    const logseq = {
      ready: (main: () => void) => {
        ready = main;
        return Promise.resolve();
      },
      settings: {},
      useSettingsSchema: () => undefined,
      updateSettings: () => undefined,
      onSettingsChanged: () => undefined,
      provideModel: () => undefined,
      beforeunload: () => undefined,
      Editor: {},
      App: {
        registerCommandPalette: (command: { key: string }) => commands.push(command.key),
        registerUIItem: () => undefined,
        openExternalLink: async () => undefined,
      },
      UI: { showMsg: async () => undefined },
    };
    runInNewContext(files.get('margin-sync/index.js')!, { logseq, console });
    ready?.();
    expect(commands.sort()).toEqual(['margin-connect', 'margin-disconnect', 'margin-sync-now']);
    expect(files.get('margin-sync/index.js')).not.toMatch(/ZodError|zod/);
  });

  test('the unpacked folders match the zips', async () => {
    const zipped = await unzipFile(join(out, 'margin-obsidian.zip'));
    expect(await readFile(join(out, 'margin-obsidian/main.js'), 'utf8')).toBe(
      zipped.get('margin-sync/main.js'),
    );
  });
});
