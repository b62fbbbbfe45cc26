import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import express from 'express';
import superjson from 'superjson';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../server/app.ts';
import { clientRouter } from '../../server/static.ts';
import { BOOT_DATA_ID, type BootData, HOME_LIST_INPUT } from '../../src/boot-data.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { makeClippedNote } from '../helpers/notes.ts';
import { signedInUser } from '../helpers/users.ts';

let deps: TestDeps;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  deps = await createTestDeps();
  app = createApp(deps);
});
afterAll(() => deps.close());

/** The boot data block of an index.html, as the client reads it. */
function bootDataOf(html: string): { raw: string; data: BootData } {
  const match = new RegExp(`<script type="application/json" id="${BOOT_DATA_ID}">(.*?)</script>`, 's').exec(
    html,
  );
  if (!match?.[1]) throw new Error('no boot data block');
  return { raw: match[1], data: superjson.parse<BootData>(match[1]) };
}

describe('index.html carries the first render’s data', () => {
  test('signed out: no user, no list, and the page is private to the cookie', async () => {
    const res = await request(app).get('/').expect(200);
    expect(bootDataOf(res.text).data).toEqual({ me: null });
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers.vary).toMatch(/Cookie/);
  });

  test('signed in on /: the user and the list’s first chunk, exactly as notes.list answers', async () => {
    const owner = await signedInUser(deps);
    const other = await signedInUser(deps);
    const hostile = '</script><script>alert(1)</script><!-- </SCRIPT';
    await makeClippedNote(deps, owner.user.id, { title: hostile, text: 'a page' });
    await makeClippedNote(deps, other.user.id, { title: 'not yours', text: 'another page' });

    const res = await request(app).get('/').set('Cookie', `logininfo=${owner.token}`).expect(200);
    const { raw, data } = bootDataOf(res.text);
    expect(raw).not.toContain('<');
    expect(data.me).toEqual(await owner.caller.auth.me());
    expect(data.settings).toEqual(await owner.caller.settings.get());
    expect(data.homeList).toEqual(await owner.caller.notes.list(HOME_LIST_INPUT));
    expect(data.homeList?.items.map((note) => note.title)).toEqual([hostile]);
    // One script element of ours and the built entry's: the title closed nothing.
    expect(res.text.match(/<\/script/gi)?.length).toBe(res.text.match(/<script/gi)?.length);
  });

  test('elsewhere, or with filters in the address, only the user and their settings', async () => {
    const owner = await signedInUser(deps);
    await owner.caller.settings.update({ theme: 'y', c2: '#123456' });
    await makeClippedNote(deps, owner.user.id, { title: 'a note', text: 'text' });
    for (const url of ['/?nav=later', '/login', '/personSetting/user']) {
      const res = await request(app).get(url).set('Cookie', `logininfo=${owner.token}`).expect(200);
      const { data } = bootDataOf(res.text);
      expect(data.me?.accountId).toBe(owner.user.accountId);
      expect(data.settings).toMatchObject({ theme: 'y', c2: '#123456' });
      expect(data.homeList).toBeUndefined();
    }
  });

  test('an unknown or revoked session is signed out', async () => {
    const res = await request(app).get('/').set('Cookie', 'logininfo=nope').expect(200);
    expect(bootDataOf(res.text).data).toEqual({ me: null });
  });
});

describe('scripts and styles compressed at build time', () => {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'margin-dist-'));
  const script = 'export const answer = 42;\n'.repeat(200);
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><head></head><body></body>');
  fs.writeFileSync(path.join(dist, 'assets/app-1.js'), script);
  fs.writeFileSync(path.join(dist, 'assets/app-1.js.br'), brotliCompressSync(script));
  fs.writeFileSync(path.join(dist, 'assets/app-1.js.gz'), gzipSync(script));
  let staticApp: express.Express;
  beforeAll(() => {
    staticApp = express().use(clientRouter(deps.config, async () => ({ me: null }), dist));
  });
  afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

  test.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
  ])(
    'Accept-Encoding %s gets the %s copy, typed as JavaScript and cached for a year',
    async (accept, encoding) => {
      const res = await request(staticApp).get('/assets/app-1.js').set('Accept-Encoding', accept).expect(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['content-type']).toContain('text/javascript');
      expect(res.headers['cache-control']).toContain('immutable');
      expect(res.headers.vary).toContain('Accept-Encoding');
      expect(Number(res.headers['content-length'])).toBeLessThan(script.length);
    },
  );

  test('a browser that takes neither gets the file as it is', async () => {
    const res = await request(staticApp)
      .get('/assets/app-1.js')
      .set('Accept-Encoding', 'identity')
      .expect(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.text).toBe(script);
  });
});
