import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { User } from '../../server/db/entities/index.ts';
import { CoreType } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { makeClippedNote } from '../helpers/notes.ts';
import { signedInUser } from '../helpers/users.ts';

let deps: TestDeps;
beforeAll(async () => {
  deps = await createTestDeps();
});
afterAll(() => deps.close());

function makeNote(user: User, title: string, tags: string[] = []) {
  return makeClippedNote(deps, user.id, { title, text: `${title} text`, tags });
}

type Caller = Awaited<ReturnType<typeof signedInUser>>['caller'];

function highlight(caller: Caller, noteId: string, tags: string[]) {
  return caller.highlights.create({
    id: newId(),
    noteId,
    coreType: CoreType.textNote,
    text: 'a passage long enough to keep',
    tags,
  });
}

/** The Tag section's count for `tag`, and the titles the list filtered by it shows (both ways). */
async function tagView(caller: Caller, tag: string) {
  const counts = await caller.notes.tags();
  const byInput = (await caller.notes.list({ nav: 'all', tag })).items.map((n) => n.title).sort();
  const bySearch = (await caller.notes.list({ nav: 'all', q: `#${tag}` })).items.map((n) => n.title).sort();
  expect(bySearch).toEqual(byInput);
  return { count: counts.find((c) => c.tag === tag), titles: byInput };
}

describe('tag counts: notes that carry a tag themselves or through a highlight', () => {
  test('a tag only on a highlight counts its note, and the tag filter lists exactly that note', async () => {
    const { caller, user } = await signedInUser(deps);
    const a = await makeNote(user, 'A', ['mine']);
    const b = await makeNote(user, 'B');
    await makeNote(user, 'C');
    await highlight(caller, b.id, ['quote']);
    await highlight(caller, b.id, ['quote']);
    expect(await tagView(caller, 'quote')).toEqual({
      count: { tag: 'quote', notes: 1, highlights: 2 },
      titles: ['B'],
    });

    // On the note itself and on one of its highlights: still one note.
    await highlight(caller, a.id, ['mine', 'quote']);
    expect(await tagView(caller, 'mine')).toEqual({
      count: { tag: 'mine', notes: 1, highlights: 1 },
      titles: ['A'],
    });
    expect(await tagView(caller, 'quote')).toEqual({
      count: { tag: 'quote', notes: 2, highlights: 3 },
      titles: ['A', 'B'],
    });
    // Two tags narrow to the notes carrying both, each by either way.
    expect((await caller.notes.list({ nav: 'all', q: '#mine #quote' })).items.map((n) => n.title)).toEqual([
      'A',
    ]);

    // Trash takes the note out of the count and the list; restoring puts it back.
    await caller.notes.trash({ ids: [b.id] });
    expect(await tagView(caller, 'quote')).toEqual({
      count: { tag: 'quote', notes: 1, highlights: 3 },
      titles: ['A'],
    });
    await caller.notes.restore({ ids: [b.id] });
    expect((await tagView(caller, 'quote')).count?.notes).toBe(2);

    // Another account sees none of it.
    const other = await signedInUser(deps);
    expect(await other.caller.notes.tags()).toEqual([]);
    expect((await other.caller.notes.list({ nav: 'all', tag: 'quote' })).items).toEqual([]);
  });

  test('changing and deleting highlight tags moves the count; a tag only in the trash counts 0 notes', async () => {
    const { caller, user } = await signedInUser(deps);
    const note = await makeNote(user, 'Only');
    const h = await highlight(caller, note.id, ['once']);
    expect((await tagView(caller, 'once')).count).toEqual({ tag: 'once', notes: 1, highlights: 1 });
    await caller.highlights.update({ id: h.id, tags: ['twice'] });
    expect(await tagView(caller, 'once')).toEqual({ count: undefined, titles: [] });
    expect((await tagView(caller, 'twice')).titles).toEqual(['Only']);
    await caller.notes.trash({ ids: [note.id] });
    expect(await tagView(caller, 'twice')).toEqual({
      count: { tag: 'twice', notes: 0, highlights: 1 },
      titles: [],
    });
    await caller.notes.restore({ ids: [note.id] });
    await caller.highlights.delete({ id: h.id });
    expect(await caller.notes.tags()).toEqual([]);
  });

  test('highlights of one note tagged at once each leave their tag on it; renames and moves carry them', async () => {
    const { caller, user } = await signedInUser(deps);
    const note = await makeNote(user, 'Shared');
    const other = await makeNote(user, 'Other');
    const made = await Promise.all(Array.from({ length: 12 }, () => highlight(caller, note.id, [])));
    await Promise.all(made.map((h, i) => caller.highlights.update({ id: h.id, tags: [`t${i}`] })));
    const counts = await caller.notes.tags();
    expect(counts.map((c) => [c.tag, c.notes]).sort()).toEqual(
      Array.from({ length: 12 }, (_, i) => [`t${i}`, 1]).sort(),
    );
    for (let i = 0; i < 12; i++) expect((await tagView(caller, `t${i}`)).titles).toEqual(['Shared']);
    // Half lose their tag at once, the others keep it.
    await Promise.all(made.slice(0, 6).map((h) => caller.highlights.update({ id: h.id, tags: [] })));
    expect((await caller.notes.tags()).map((c) => c.tag)).toEqual(['t10', 't11', 't6', 't7', 't8', 't9']);

    await caller.notes.renameTag({ from: 't6', to: 'renamed' });
    expect(await tagView(caller, 'renamed')).toEqual({
      count: { tag: 'renamed', notes: 1, highlights: 1 },
      titles: ['Shared'],
    });
    expect((await tagView(caller, 't6')).titles).toEqual([]);
    // A highlight that moves to another note takes its tag along (as a move to a daily note does).
    await deps.orm.em
      .fork()
      .execute('update highlight set note_id = ? where user_id = ? and id = ?', [
        other.id,
        user.id,
        made[7]!.id,
      ]);
    expect((await tagView(caller, 't7')).titles).toEqual(['Other']);
    expect((await tagView(caller, 't8')).titles).toEqual(['Shared']);
  });

  test('tagged highlights created at once on one note all land, each leaving its tag on the note', async () => {
    const { caller, user } = await signedInUser(deps);
    const note = await makeNote(user, 'Busy');
    await Promise.all(Array.from({ length: 12 }, (_, i) => highlight(caller, note.id, [`c${i}`])));
    const counts = await caller.notes.tags();
    expect(counts.map((c) => [c.tag, c.notes, c.highlights]).sort()).toEqual(
      Array.from({ length: 12 }, (_, i) => [`c${i}`, 1, 1]).sort(),
    );
  });

  test('parallel tagging, untagging, deleting, trashing and restoring leave counts that match the list', async () => {
    const { caller, user } = await signedInUser(deps);
    const notes = await Promise.all(Array.from({ length: 12 }, (_, i) => makeNote(user, `N${i}`)));
    // Every note gets two tagged highlights at once.
    const made = await Promise.all(
      notes.flatMap((note) => [highlight(caller, note.id, ['busy']), highlight(caller, note.id, ['busy'])]),
    );
    expect((await tagView(caller, 'busy')).count).toEqual({ tag: 'busy', notes: 12, highlights: 24 });

    // Notes 0–3 lose both highlights' tag (one untagged, one deleted), 4–5 go to the trash,
    // 6–7 go to the trash and come back, 8–11 get the tag on the note too; all at once.
    const work: Promise<unknown>[] = [];
    notes.forEach((note, i) => {
      const [first, second] = [made[2 * i]!, made[2 * i + 1]!];
      if (i < 4) {
        work.push(caller.highlights.update({ id: first.id, tags: [] }));
        work.push(caller.highlights.delete({ id: second.id }));
      } else if (i < 6) work.push(caller.notes.trash({ ids: [note.id] }));
      else if (i < 8)
        work.push(
          caller.notes.trash({ ids: [note.id] }).then(() => caller.notes.restore({ ids: [note.id] })),
        );
      else work.push(caller.notes.addTag({ ids: [note.id], tag: 'busy' }));
    });
    await Promise.all(work);

    const { count, titles } = await tagView(caller, 'busy');
    expect(titles).toEqual(['N10', 'N11', 'N6', 'N7', 'N8', 'N9']);
    expect(count).toEqual({ tag: 'busy', notes: 6, highlights: 16 });
  });
});
