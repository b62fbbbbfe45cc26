import http from 'node:http';
import type { Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../server/app.ts';
import { ClipStatus, CoreType } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { startServer } from '../helpers/http.ts';
import { makeClippedNote } from '../helpers/notes.ts';
import { signedInUser } from '../helpers/users.ts';
import { unzip } from '../helpers/zip.ts';

let deps: TestDeps;
let app: Express;
beforeAll(async () => {
  deps = await createTestDeps();
  app = createApp(deps);
});
afterAll(() => deps.close());

function download(token?: string) {
  const req = request(app).get('/api/export/markdown.zip');
  if (token) req.set('Cookie', `logininfo=${token}`);
  return req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
}

describe('Markdown export', () => {
  test('every note as a Markdown file in a zip, with its highlights; nothing of anyone else', async () => {
    const owner = await signedInUser(deps);
    const other = await signedInUser(deps);
    const page = await makeClippedNote(deps, owner.user.id, {
      title: '读书笔记: margins',
      text: 'text',
      tags: ['books'],
    });
    await owner.caller.highlights.create({
      id: newId(),
      noteId: page.id,
      coreType: CoreType.textNote,
      text: 'A thought worth keeping',
    });
    await owner.caller.daily.save({
      date: '2026-03-01',
      text: 'Read two chapters',
      baseText: '',
      baseVersion: 0,
    });
    await makeClippedNote(deps, other.user.id, { title: 'Someone else’s note', text: 'private' });

    const res = await download(owner.token).expect(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="?margin-markdown-\d{4}-\d{2}-\d{2}\.zip"?$/,
    );
    const files = await unzip(res.body as Buffer);
    const names = [...files.keys()];
    expect(names).toHaveLength(2);
    const pageFile = names.find((n) => n.startsWith('Notes/'));
    expect(pageFile).toBe(`Notes/读书笔记 margins-${page.id}.md`);
    const pageText = files.get(pageFile ?? '') ?? '';
    expect(pageText).toContain(`margin_id: ${page.id}`);
    expect(pageText).toContain('A thought worth keeping');
    const daily = names.find((n) => n.startsWith('Daily notes/'));
    expect(files.get(daily ?? '')).toContain('Read two chapters');
    expect([...files.values()].join('\n')).not.toContain('Someone else');
  });

  test("the user's own Obsidian template is what the files are made with", async () => {
    const user = await signedInUser(deps);
    await makeClippedNote(deps, user.user.id, { title: 'Templated', text: 'text' });
    await user.caller.sync.updateSettings({
      app: 'obsidian',
      settings: { templates: { note: 'Custom: {{ title }} ({{ highlightcount }})' } },
    });
    const files = await unzip((await download(user.token).expect(200)).body as Buffer);
    expect([...files.values()]).toEqual(['Custom: Templated (0)']);
  });

  test('a reader who leaves mid-download stops the export; the server goes on', async () => {
    const user = await signedInUser(deps);
    for (let i = 0; i < 150; i++) {
      await makeClippedNote(deps, user.user.id, {
        title: `Long read ${i}`,
        text: `${'words '.repeat(400)}${i}`,
      });
    }
    const server = await startServer(deps);
    try {
      await new Promise<void>((resolve, reject) => {
        const req = http.get(`${server.url}/api/export/markdown.zip`, {
          headers: { Cookie: `logininfo=${user.token}` },
        });
        req.on('response', (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', (error) => (req.destroyed ? resolve() : reject(error)));
      });
      // Still serving, and the whole zip comes to a reader who stays.
      const files = await unzip((await download(user.token).expect(200)).body as Buffer);
      expect(files.size).toBe(150);
    } finally {
      await server.close();
    }
  });

  test("a failed clip with nothing highlighted is left out; a daily note's Margin links are absolute", async () => {
    const user = await signedInUser(deps);
    const kept = await makeClippedNote(deps, user.user.id, { title: 'Kept', text: 'text' });
    const failed = await makeClippedNote(deps, user.user.id, { title: 'Never fetched', text: '' });
    await deps.orm.em
      .fork()
      .execute(`update note set clip_status = ${ClipStatus.failed} where id = ?`, [failed.id]);
    await user.caller.daily.save({
      date: '2026-03-02',
      text: `— [Kept](/?pi=${kept.id}&vs=article) · [site](https://example.com/?a=1)`,
      baseText: '',
      baseVersion: 0,
    });
    const files = await unzip((await download(user.token).expect(200)).body as Buffer);
    const names = [...files.keys()];
    expect(names.some((n) => n.includes(kept.id))).toBe(true);
    expect(names.some((n) => n.includes(failed.id))).toBe(false);
    const daily = files.get(names.find((n) => n.startsWith('Daily notes/')) ?? '') ?? '';
    expect(daily).toMatch(new RegExp(`\\]\\(http://127\\.0\\.0\\.1:\\d+/\\?pi=${kept.id}&vs=article\\)`));
    expect(daily).toContain('[site](https://example.com/?a=1)');
    expect(daily).not.toContain('](/?');
  });

  test('a template with a variable no render gives: the preview names it', async () => {
    const user = await signedInUser(deps);
    await makeClippedNote(deps, user.user.id, { title: 'Previewed', text: 'text' });
    const preview = await user.caller.sync.preview({
      app: 'obsidian',
      templates: {
        note: '{{ note.title }} {{ title }} {{ titel }}{% for h in highlights %}{{ h.text }}{% endfor %}',
      },
    });
    expect(preview.unknownVariables).toEqual(['note', 'titel']);
    const flomo = await user.caller.sync.preview({
      app: 'flomo',
      templates: { highlight: '{{ highlight.text }} {{ highlight.txt }} {{ item.link }} {{ title }}' },
    });
    expect(flomo.unknownVariables).toEqual(['highlight.txt']);
    const clean = await user.caller.sync.preview({ app: 'obsidian' });
    expect(clean.unknownVariables).toEqual([]);
  });

  test('signed out: 401 and no zip', async () => {
    const res = await request(app).get('/api/export/markdown.zip').expect(401);
    expect(res.body).toEqual({ error: 'errors.unauthorized' });
    await request(app).get('/api/export/markdown.zip').set('Cookie', 'logininfo=forged').expect(401);
  });
});
