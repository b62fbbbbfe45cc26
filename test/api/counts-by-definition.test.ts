import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../server/app.ts';
import { clock } from '../../server/clock.ts';
import { User } from '../../server/db/entities/index.ts';
import { purgeTrash } from '../../server/domain/notes/organise.service.ts';
import { TRASH_RETENTION_MS } from '../../src/constants.ts';
import { CoreType, Flow } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { type RunningServer, startServer } from '../helpers/http.ts';
import { countsAsDefined } from '../helpers/nav-counts.ts';
import { makeClippedNote } from '../helpers/notes.ts';
import { apiClient, apiUser } from '../helpers/openapi.ts';
import { signedInUser } from '../helpers/users.ts';

// The sidebar's counts (notes.counts and the Tag section's notes.tags) are counters that
// triggers keep; after each kind of change, from each front that makes it, they must equal
// their definition counted from the notes and highlights (test/helpers/count-definitions.ts).

let deps: TestDeps;
let server: RunningServer;
beforeAll(async () => {
  deps = await createTestDeps();
  server = await startServer(deps);
});
afterAll(async () => {
  await server.close();
  await deps.close();
});

type Signed = Awaited<ReturnType<typeof signedInUser>>;
const PASSAGE = 'Reading is a conversation. All books talk. But a good book listens as well.';

function note(user: Signed['user'], title: string, tags: string[] = []) {
  return makeClippedNote(deps, user.id, { title, text: `${title}: ${PASSAGE}`, tags });
}

function tagged(caller: Signed['caller'], noteId: string, tags: string[]) {
  return caller.highlights.create({ id: newId(), noteId, coreType: CoreType.textNote, text: PASSAGE, tags });
}

describe('the sidebar counts equal their definition after every kind of change', () => {
  test('the app: saves, states, tags on notes and highlights, folders, trash, deletes, daily moves, the purge', async () => {
    const signed = await signedInUser(deps);
    const { caller, user } = signed;
    const check = (step: string) => countsAsDefined(deps.orm.em, caller, user.id, step);
    await check('nothing yet');

    const a = await note(user, 'A', ['reading']);
    const b = await note(user, 'B');
    const c = await note(user, 'C', ['work', 'reading']);
    const { note: saved } = await caller.notes.clip({ url: 'https://example.test/counts/saved' });
    await check('notes saved');

    await caller.notes.setFlow({ ids: [a.id, saved.id], flow: Flow.later });
    await caller.notes.setFlow({ ids: [b.id], flow: Flow.shortlist });
    await caller.notes.setFlow({ ids: [c.id], flow: Flow.archive });
    await check('states');

    await caller.notes.addTag({ ids: [b.id, saved.id], tag: 'ideas' });
    await caller.notes.removeTag({ ids: [c.id], tag: 'reading' });
    await check('tags on notes');

    const h1 = await tagged(caller, a.id, ['quotes', 'reading']);
    const h2 = await tagged(caller, b.id, ['quotes']);
    await tagged(caller, c.id, []);
    await check('tagged highlights');
    await caller.highlights.update({ id: h2.id, tags: ['work'] });
    await check('a highlight retagged');
    await caller.highlights.delete({ id: h1.id });
    await check('a tagged highlight deleted');

    await caller.notes.renameTag({ from: 'work', to: 'job' });
    await check('a tag renamed across notes and highlights');
    await caller.notes.mergeTags({ from: ['ideas', 'quotes'], to: 'reading' });
    await check('tags merged');

    const folder = await caller.folders.create({ name: 'Kept' });
    await caller.notes.moveToFolder({ ids: [a.id, b.id], folderId: folder.id });
    await caller.folders.delete({ id: folder.id });
    await check('folders');

    const onTheMove = await tagged(caller, saved.id, ['moving']);
    await caller.daily.moveHighlights({ ids: [onTheMove.id], target: 'today' });
    await check('a tagged highlight moved to the daily note');

    await caller.notes.trash({ ids: [a.id, b.id, saved.id] });
    await check('trashed');
    await caller.notes.restore({ ids: [a.id] });
    await check('restored');
    await caller.notes.deleteForever({ ids: [b.id] });
    await check('deleted for good');
    await purgeTrash(
      deps.orm.em.fork(),
      deps.queues,
      new Date(clock.now().getTime() + TRASH_RETENTION_MS + 1),
    );
    const { tags } = await check('the trash purged');
    expect(tags.length).toBeGreaterThan(0);
  });

  test('the Open API and the sync API', async () => {
    const owner = await apiUser(deps);
    const check = (step: string) => countsAsDefined(deps.orm.em, owner.caller, owner.user.id, step);
    const api = apiClient(server.url, owner.apiToken);
    const a = await note(owner.user, 'Api A');
    const b = await note(owner.user, 'Api B', ['reading']);

    const updated = await api.PATCH('/notes/{id}', {
      params: { path: { id: a.id } },
      body: { flow: Flow.shortlist, tags: ['api', 'reading'] },
    });
    expect(updated.response.status).toBe(200);
    await check('a note updated by the Open API');
    const made = await api.POST('/highlights', {
      body: { noteId: b.id, coreType: CoreType.highlight, quote: 'All books talk.', tags: ['api'] },
    });
    expect(made.response.status).toBe(201);
    await check('a highlight made by the Open API');
    const trashed = await api.POST('/notes/{id}/trash', { params: { path: { id: a.id } } });
    expect(trashed.response.status).toBe(200);
    await check('trashed by the Open API');
    const deleted = await api.DELETE('/notes/{id}', { params: { path: { id: b.id } } });
    expect(deleted.response.status).toBe(200);
    await check('deleted by the Open API');

    const app = createApp(deps);
    const c = await note(owner.user, 'Synced', ['sync']);
    const d = await note(owner.user, 'Synced away', ['sync']);
    const clientId = `c_${newId()}`;
    await request(app).post('/api/sync/v1/token').send({ clientId }).expect(202);
    await owner.caller.sync.confirmDevice({ serviceId: 7, clientId });
    const { body } = await request(app).post('/api/sync/v1/token').send({ clientId }).expect(200);
    const sync = (path: string, noteId: string) =>
      request(app).post(`/api/sync/v1${path}`).set('Authorization', `Bearer ${body.token}`).send({ noteId });
    await sync('/archive', c.id).expect(200);
    await check('archived by a sync client');
    await sync('/delete', d.id).expect(200);
    await check('deleted by a sync client');
  });

  test('a deleted account leaves no counts behind, and another user’s stay as defined', async () => {
    const leaving = await signedInUser(deps);
    const staying = await signedInUser(deps);
    for (const signed of [leaving, staying]) {
      const n = await note(signed.user, 'Mine', ['reading']);
      await tagged(signed.caller, n.id, ['quotes']);
    }
    // What deleting an account does in the end (account.service.ts): the user's row goes, and
    // with it, by cascade, their notes, highlights and counters.
    await deps.orm.em.fork().nativeDelete(User, { id: leaving.user.id });
    const left = await deps.orm.em
      .fork()
      .execute<{ n: number }[]>(
        'select (select count(*) from note_count where user_id = ?) + (select count(*) from note_tag_count where user_id = ?) as n',
        [leaving.user.id, leaving.user.id],
      );
    expect(Number(left[0]?.n)).toBe(0);
    await countsAsDefined(deps.orm.em, staying.caller, staying.user.id, 'another account deleted');
  });

  test('parallel saves, deletes, tag changes on notes and highlights, trash and restores leave every count exact', async () => {
    const { caller, user } = await signedInUser(deps);
    const notes = await Promise.all(
      Array.from({ length: 12 }, (_, i) => note(user, `P${i}`, i % 3 ? [] : ['shared'])),
    );
    const highlights = await Promise.all(notes.map((n, i) => tagged(caller, n.id, i % 2 ? ['shared'] : [])));
    const ids = notes.map((n) => n.id);
    const some = (k: number) => [...new Set([ids[k % 12], ids[(k * 5 + 1) % 12]])] as string[];
    const settle = (work: Promise<unknown>) =>
      work.then(
        () => 'ok',
        (error: { code?: string }) => error.code ?? 'error',
      );
    const outcomes = await Promise.all(
      Array.from({ length: 48 }, (_, k) => {
        const selection = { ids: some(k) };
        const highlight = highlights[k % 12] as { id: string };
        switch (k % 8) {
          case 0:
            return settle(caller.notes.addTag({ ...selection, tag: 'shared' }));
          case 1:
            return settle(caller.notes.removeTag({ ...selection, tag: 'shared' }));
          case 2:
            return settle(
              caller.highlights.update({ id: highlight.id, tags: k % 3 ? ['shared', 'more'] : [] }),
            );
          case 3:
            return settle(tagged(caller, ids[k % 12] as string, ['shared']));
          case 4:
            return settle(caller.notes.trash(selection));
          case 5:
            return settle(caller.notes.restore(selection));
          case 6:
            return settle(caller.notes.deleteForever({ ids: [ids[(k * 7) % 12] as string] }));
          default:
            return settle(caller.notes.clip({ url: `https://example.test/counts/parallel/${k}` }));
        }
      }),
    );
    // A change whose note another one deleted is a NOT_FOUND; nothing else fails.
    expect(outcomes.filter((o) => o !== 'ok' && o !== 'NOT_FOUND')).toEqual([]);
    await countsAsDefined(deps.orm.em, caller, user.id, 'after the parallel changes');
  });
});
