// /downloads/…: the packages this server built (the note-tool plugins and the browser extension),
// the Obsidian one carrying the server's address in the plugin's data.json; a package not built,
// or any other path under /downloads/, is a JSON 404 and never the client's index.html.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../server/app.ts';
import { EXTENSION_VERSION } from '../../src/schemas/extension.ts';
import { buildPackages } from '../helpers/built-packages.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { unzip } from '../helpers/zip.ts';

const MANIFEST = JSON.parse(
  await readFile(join(import.meta.dirname, '../../plugins/obsidian/manifest.json'), 'utf8'),
) as { id: string; version: string };

let deps: TestDeps;
let packages: Awaited<ReturnType<typeof buildPackages>>;
let emptyDir: string;
/** The app serving the packages built for this file. */
let built: Express;
/** The same app where nothing was built. */
let unbuilt: Express;

beforeAll(async () => {
  [deps, packages, emptyDir] = await Promise.all([
    createTestDeps(),
    buildPackages({ extension: true }),
    mkdtemp(join(tmpdir(), 'margin-unbuilt-')),
  ]);
  built = createApp({ ...deps, config: { ...deps.config, packagesDir: packages.dir } });
  unbuilt = createApp({ ...deps, config: { ...deps.config, packagesDir: emptyDir } });
});
afterAll(async () => {
  await Promise.all([deps.close(), packages.remove(), rm(emptyDir, { recursive: true, force: true })]);
});

/** Answers as raw bytes, whatever the content type. */
const download = (app: Express, path: string) =>
  request(app)
    .get(path)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });

describe('the plugin downloads', () => {
  test("Obsidian: one folder named by the plugin's id with main.js, the manifest and data.json naming the address the request reached", async () => {
    const res = await download(built, '/downloads/plugins/obsidian').expect(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename=margin-obsidian-${MANIFEST.version}.zip`,
    );
    const files = await unzip(res.body);
    expect([...files.keys()].sort()).toEqual(
      ['data.json', 'main.js', 'manifest.json'].map((name) => `${MANIFEST.id}/${name}`),
    );
    expect(JSON.parse(files.get(`${MANIFEST.id}/manifest.json`)!)).toEqual(MANIFEST);
    expect(files.get(`${MANIFEST.id}/main.js`)).toContain('module.exports');
    // The shape plugins/obsidian/main.ts loads its settings from.
    expect(JSON.parse(files.get(`${MANIFEST.id}/data.json`)!)).toEqual({
      settings: { server: new URL(res.request.url).origin },
    });
  });

  test('with PUBLIC_URL set, data.json names it', async () => {
    const app = createApp({
      ...deps,
      config: { ...deps.config, packagesDir: packages.dir, publicUrl: 'https://margin.example.org' },
    });
    const res = await download(app, '/downloads/plugins/obsidian').expect(200);
    const files = await unzip(res.body);
    expect(JSON.parse(files.get(`${MANIFEST.id}/data.json`)!)).toEqual({
      settings: { server: 'https://margin.example.org' },
    });
  });

  test('Logseq: the built zip, its package.json naming the same version', async () => {
    const res = await download(built, '/downloads/plugins/logseq').expect(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const files = await unzip(res.body);
    expect([...files.keys()].sort()).toEqual(['margin-sync/index.js', 'margin-sync/package.json']);
    expect(JSON.parse(files.get('margin-sync/package.json')!).version).toBe(MANIFEST.version);
  });

  test('system.info lists what was built, with the versions the downloads carry', async () => {
    const res = await request(built).get('/trpc/system.info').expect(200);
    const info = res.body.result.data.json;
    expect(info.plugins).toEqual([
      { tool: 'obsidian', version: MANIFEST.version },
      { tool: 'logseq', version: MANIFEST.version },
    ]);
    expect(info.extension.downloads).toEqual(['chrome', 'edge', 'firefox']);
    const nothing = await request(unbuilt).get('/trpc/system.info');
    expect(nothing.body.result.data.json).toMatchObject({ plugins: [], extension: { downloads: [] } });
  });
});

describe('the extension downloads', () => {
  test('each browser its zip (Edge the Chrome one), named with the version', async () => {
    for (const browser of ['chrome', 'edge', 'firefox']) {
      const res = await download(built, `/downloads/extension/${browser}`).expect(200);
      expect(res.headers['content-type']).toBe('application/zip');
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename=margin-${browser}-${EXTENSION_VERSION}.zip`,
      );
      const files = await unzip(res.body);
      expect(JSON.parse(files.get('manifest.json')!).version).toBe(EXTENSION_VERSION);
    }
  });
});

describe('nothing built, or nothing there', () => {
  test.each([
    ['/downloads/plugins/obsidian', unbuiltApp],
    ['/downloads/plugins/logseq', unbuiltApp],
    ['/downloads/extension/chrome', unbuiltApp],
    ['/downloads/extension/firefox', unbuiltApp],
    ['/downloads/plugins/siyuan', builtApp],
    ['/downloads/extension/safari', builtApp],
    ['/downloads/', builtApp],
    ['/downloads/anything/else', builtApp],
  ])('%s is a JSON 404, not the index page', async (path, app) => {
    const res = await request(app()).get(path).expect(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ error: 'errors.notFound' });
  });
});

function builtApp() {
  return built;
}
function unbuiltApp() {
  return unbuilt;
}
