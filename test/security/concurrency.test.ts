import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../server/app.ts';
import { CoreType, Flow } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { countsAsListed } from '../helpers/nav-counts.ts';
import { makeClippedNote } from '../helpers/notes.ts';
import { callProcedure, makeFixtures } from './router-inventory.ts';

// The same request many times at once, as a double-clicking user, a retrying offline queue or an
// attacker racing the checks would send it. (Parallel code guesses: auth-limits.test.ts.)
let deps: TestDeps;
let app: Express;

beforeAll(async () => {
  deps = await createTestDeps();
  app = createApp(deps);
});
afterAll(() => deps.close());

const create = { path: 'highlights.create', type: 'mutation' } as const;
const createFolder = { path: 'folders.create', type: 'mutation' } as const;
const renameFolder = { path: 'folders.rename', type: 'mutation' } as const;
const addTag = { path: 'notes.addTag', type: 'mutation' } as const;

async function rows<T>(sql: string, params: unknown[]): Promise<T[]> {
  return deps.orm.em.fork().execute<T[]>(sql, params);
}

describe('parallel requests', () => {
  test('20 creates with one id make one highlight; the note counts it once', async () => {
    const { fx, token, user } = await makeFixtures(deps);
    const id = newId();
    const input = { id, noteId: fx.noteId, coreType: CoreType.image, imageUrl: 'https://example.test/a.png' };
    const results = await Promise.all(
      Array.from({ length: 20 }, () => callProcedure(app, create, input, token)),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(results.map((r) => (r.data as { id: string }).id))).toEqual(new Set([id]));
    const highlights = await rows<{ n: string }>(
      'select count(*) as n from highlight where user_id = ? and id = ?',
      [user.id, id],
    );
    expect(Number(highlights[0]?.n)).toBe(1);
    const [note] = await rows<{ highlight_count: number }>('select highlight_count from note where id = ?', [
      fx.noteId,
    ]);
    expect(note?.highlight_count).toBe(1);
  });

  test('two users creating with the same id at once each get their own highlight', async () => {
    const a = await makeFixtures(deps, 'alpha');
    const b = await makeFixtures(deps, 'beta');
    const id = newId();
    const calls = [a, b].flatMap((u) =>
      Array.from({ length: 10 }, () =>
        callProcedure(
          app,
          create,
          { id, noteId: u.fx.noteId, coreType: CoreType.textNote, text: `${u.fx.tag} says hi` },
          u.token,
        ),
      ),
    );
    const results = await Promise.all(calls);
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const highlights = await rows<{ user_id: string; text: string }>(
      'select user_id, text from highlight where id = ? order by text',
      [id],
    );
    expect(highlights.map((n) => [Number(n.user_id), n.text])).toEqual([
      [a.user.id, 'alpha-tag says hi'],
      [b.user.id, 'beta-tag says hi'],
    ]);
  });

  test('10 folders with one name at once: one is made, the rest are told it exists', async () => {
    const { token, user } = await makeFixtures(deps);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => callProcedure(app, createFolder, { name: 'Twins' }, token)),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) {
      expect(r.error).toMatchObject({ appCode: 'CONFLICT', messageKey: 'errors.folderExists' });
    }
    const folders = await rows<{ n: string }>(
      'select count(*) as n from folder where user_id = ? and name = ?',
      [user.id, 'Twins'],
    );
    expect(Number(folders[0]?.n)).toBe(1);
  });

  test('two folders renamed to one name at once: one wins', async () => {
    const { token, caller } = await makeFixtures(deps);
    const one = await caller.folders.create({ name: 'One' });
    const two = await caller.folders.create({ name: 'Two' });
    const results = await Promise.all(
      [one, two].map((f) => callProcedure(app, renameFolder, { id: f.id, name: 'Same' }, token)),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const names = (await caller.folders.list()).map((f) => f.name);
    expect(names.filter((n) => n === 'Same')).toHaveLength(1);
    expect(names.filter((n) => n === 'One' || n === 'Two')).toHaveLength(1);
  });

  test('one URL clipped and sent 10 times at once is one note', async () => {
    const { token, user } = await makeFixtures(deps);
    const url = 'https://example.test/raced';
    const results = await Promise.all([
      ...Array.from({ length: 5 }, () =>
        callProcedure(app, { path: 'notes.clip', type: 'mutation' }, { url }, token),
      ),
      ...Array.from({ length: 5 }, () =>
        callProcedure(
          app,
          { path: 'notes.clipHtml', type: 'mutation' },
          { url, html: '<html><body><p>Raced note</p></body></html>' },
          token,
        ),
      ),
    ]);
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(results.map((r) => (r.data as { note: { id: string } }).note.id)).size).toBe(1);
    const notes = await rows<{ n: string }>('select count(*) as n from note where user_id = ? and url = ?', [
      user.id,
      url,
    ]);
    expect(Number(notes[0]?.n)).toBe(1);
  });

  test('20 adds of one tag at once leave it on the note once', async () => {
    const { fx, token, user } = await makeFixtures(deps);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => callProcedure(app, addTag, { ids: [fx.noteId], tag: 'twice' }, token)),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const [note] = await rows<{ tags: string[] }>('select tags from note where id = ? and user_id = ?', [
      fx.noteId,
      user.id,
    ]);
    expect(note?.tags.filter((t) => t === 'twice')).toEqual(['twice']);
  });

  test('parallel flow changes, trash, restore, tags, saves and deletes leave every left-nav count exact', async () => {
    const { caller, token, user } = await makeFixtures(deps);
    const notes = [];
    for (let i = 0; i < 12; i++) {
      notes.push(
        await makeClippedNote(deps, user.id, { title: `n${i}`, text: 'text', tags: i % 3 ? [] : ['t'] }),
      );
    }
    const ids = notes.map((n) => n.id);
    // Overlapping selections, so requests wait on each other's rows.
    const some = (k: number) => [...new Set([ids[k % 12], ids[(k * 5 + 1) % 12], ids[(k * 7 + 3) % 12]])];
    const flows = [Flow.inbox, Flow.later, Flow.shortlist, Flow.archive];
    const mutation = (path: string) => ({ path, type: 'mutation' }) as const;
    const calls = Array.from({ length: 56 }, (_, k) => {
      const selection = { ids: some(k) };
      switch (k % 7) {
        case 0:
          return callProcedure(app, mutation('notes.setFlow'), { ...selection, flow: flows[k % 4] }, token);
        case 1:
          return callProcedure(app, mutation('notes.trash'), selection, token);
        case 2:
          return callProcedure(app, mutation('notes.restore'), selection, token);
        case 3:
          return callProcedure(app, addTag, { ...selection, tag: 'x' }, token);
        case 4:
          return callProcedure(app, mutation('notes.removeTag'), { ...selection, tag: 't' }, token);
        case 5:
          return callProcedure(app, mutation('notes.deleteForever'), selection, token);
        default:
          return callProcedure(
            app,
            mutation('notes.clip'),
            { url: `https://example.test/parallel/${k}` },
            token,
          );
      }
    });
    const results = await Promise.all(calls);
    // Every request answers: a statement that did not apply is a 200 with changed 0 or a 404
    // (its notes were deleted by another), never a deadlock or a server error.
    expect(results.filter((r) => r.status !== 200 && r.status !== 404)).toEqual([]);
    const counts = await countsAsListed(caller);
    expect(counts.all + counts.trash).toBe(
      Number(
        (
          await rows<{ n: string }>('select count(*) as n from note where user_id = ? and kind = 1', [
            user.id,
          ])
        )[0]?.n,
      ),
    );
  });
});
