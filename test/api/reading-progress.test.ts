import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SortOrder } from '../../src/enums.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { type RunningServer, startServer } from '../helpers/http.ts';
import { makeClippedNote } from '../helpers/notes.ts';
import { apiClient, apiUser } from '../helpers/openapi.ts';
import { signedInUser } from '../helpers/users.ts';

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

/** What a save could disturb: the note's update time, its sync change stamp, its read time. */
async function noteRow(id: string) {
  const [row] = await deps.orm.em
    .fork()
    .execute<{ updated_at: Date; change_xid: string; change_seq: string; read_at: Date | null }[]>(
      `select "updated_at", "change_xid"::text as change_xid, "change_seq"::text as change_seq, "read_at"
       from "note" where "id" = ?`,
      [id],
    );
  return row;
}

describe('reading progress', () => {
  test('saved on the note and given back with it; neither the update time nor the sync change moves', async () => {
    const { caller, user } = await signedInUser(deps);
    const older = await makeClippedNote(deps, user.id, { title: 'Older', text: 'first text' });
    const newer = await makeClippedNote(deps, user.id, { title: 'Newer', text: 'second text' });
    expect((await caller.notes.get({ id: older.id })).readingProgress).toBeNull();
    const before = await noteRow(older.id);

    await expect(caller.notes.saveProgress({ id: older.id, offset: 6, fraction: 0.42 })).resolves.toEqual({
      offset: 6,
      fraction: 0.42,
    });
    const detail = await caller.notes.get({ id: older.id });
    expect(detail.readingProgress?.offset).toBe(6);
    expect(detail.readingProgress?.fraction).toBeCloseTo(0.42, 5);

    const after = await noteRow(older.id);
    expect(after?.updated_at).toEqual(before?.updated_at);
    expect([after?.change_xid, after?.change_seq]).toEqual([before?.change_xid, before?.change_seq]);
    expect(after?.read_at).not.toBeNull();
    // "Recently updated" still lists the note read last below the one changed last.
    const recent = await caller.notes.list({ nav: 'all', sort: SortOrder.recentlyUpdated });
    expect(recent.items.map((n) => n.id)).toEqual([newer.id, older.id]);

    await caller.notes.saveProgress({ id: older.id, offset: 0, fraction: 1 });
    expect((await caller.notes.get({ id: older.id })).readingProgress).toEqual({ offset: 0, fraction: 1 });
  });

  test("another user's note id is NOT_FOUND and leaves that note's progress as it was", async () => {
    const owner = await signedInUser(deps);
    const other = await signedInUser(deps);
    const note = await makeClippedNote(deps, owner.user.id, { title: 'Mine', text: 'my text' });
    await owner.caller.notes.saveProgress({ id: note.id, offset: 3, fraction: 0.25 });
    const before = await noteRow(note.id);

    await expect(
      other.caller.notes.saveProgress({ id: note.id, offset: 5, fraction: 0.9 }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(
      other.caller.notes.saveProgress({ id: 'no-such-note', offset: 0, fraction: 0 }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await owner.caller.notes.get({ id: note.id })).readingProgress).toEqual({
      offset: 3,
      fraction: 0.25,
    });
    expect(await noteRow(note.id)).toEqual(before);
  });

  test('a daily note has no reading progress (only web notes open in the reader)', async () => {
    const { caller } = await signedInUser(deps);
    const day = await caller.daily.save({ date: '2026-03-14', text: 'today', baseText: '', baseVersion: 0 });
    await expect(caller.notes.saveProgress({ id: day.id, offset: 0, fraction: 0.5 })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  test.each([
    { offset: -1, fraction: 0.5 },
    { offset: 1.5, fraction: 0.5 },
    { offset: 2 ** 31, fraction: 0.5 },
    { offset: 0, fraction: -0.01 },
    { offset: 0, fraction: 1.01 },
    { offset: 0, fraction: Number.NaN },
  ])('out of range ($offset, $fraction) is BAD_REQUEST and saves nothing', async (input) => {
    const { caller, user } = await signedInUser(deps);
    const note = await makeClippedNote(deps, user.id, { title: 'T', text: 'text' });
    await expect(caller.notes.saveProgress({ id: note.id, ...input })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    expect((await caller.notes.get({ id: note.id })).readingProgress).toBeNull();
  });

  test("the Open API gives a note's reading progress with the note", async () => {
    const owner = await apiUser(deps);
    const note = await makeClippedNote(deps, owner.user.id, { title: 'Via API', text: 'some text to read' });
    const api = apiClient(server.url, owner.apiToken);
    const get = () => api.GET('/notes/{id}', { params: { path: { id: note.id } } });
    expect((await get()).data?.data.readingProgress).toBeNull();
    await owner.caller.notes.saveProgress({ id: note.id, offset: 5, fraction: 0.5 });
    expect((await get()).data?.data.readingProgress).toEqual({ offset: 5, fraction: 0.5 });
  });
});
