import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clock, setClock } from '../../server/clock.ts';
import { Note, NoteContent, type User } from '../../server/db/entities/index.ts';
import { navCounts } from '../../server/domain/notes/note-counts.ts';
import { purgeTrash } from '../../server/domain/notes/organise.service.ts';
import { CoreType, Flow, NoteKind } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { createTestDeps, TEST_NOW, type TestDeps } from '../helpers/deps.ts';
import { countsAsListed } from '../helpers/nav-counts.ts';
import { makeClippedNote } from '../helpers/notes.ts';
import { signedInUser } from '../helpers/users.ts';

let deps: TestDeps;
beforeAll(async () => {
  deps = await createTestDeps();
});
afterAll(() => deps.close());

/** A clipped note of `user`, made straight in the database. */
function makeNote(user: User, title: string, text: string, extra: { tags?: string[]; flow?: number } = {}) {
  return makeClippedNote(deps, user.id, { title, text, ...extra });
}

describe('states and transitions', () => {
  test('later, star, archive, unarchive; each left-nav entry lists what it should, with counts', async () => {
    const { caller, user } = await signedInUser(deps);
    const a = await makeNote(user, 'Alpha', 'first text');
    const b = await makeNote(user, 'Beta', 'second text');
    const c = await makeNote(user, 'Gamma', 'third text', { tags: ['keep'] });
    await caller.notes.setFlow({ ids: [a.id], flow: Flow.later });
    await caller.notes.setFlow({ ids: [b.id], flow: Flow.shortlist });
    await caller.notes.setFlow({ ids: [c.id], flow: Flow.archive });
    const titles = async (nav: 'all' | 'later' | 'star' | 'archive' | 'unarchive' | 'notag' | 'trash') =>
      (await caller.notes.list({ nav })).items.map((p) => p.title);
    expect(await titles('later')).toEqual(['Alpha']);
    expect(await titles('star')).toEqual(['Beta']);
    expect(await titles('archive')).toEqual(['Gamma']);
    expect(await titles('unarchive')).toEqual(['Beta', 'Alpha']);
    expect(await titles('notag')).toEqual(['Beta', 'Alpha']);
    expect(await titles('all')).toEqual(['Gamma', 'Beta', 'Alpha']);
    await caller.notes.setFlow({ ids: [c.id], flow: Flow.inbox });
    expect(await titles('archive')).toEqual([]);
    expect(await caller.notes.counts()).toMatchObject({
      all: 3,
      later: 1,
      star: 1,
      archive: 0,
      unarchive: 3,
      trash: 0,
      notag: 2,
    });
  });

  test('trash: move in, put back, force-delete only from the trash', async () => {
    const { caller, user } = await signedInUser(deps);
    const a = await makeNote(user, 'Keep me', 'text');
    const b = await makeNote(user, 'Bin me', 'text');
    await expect(caller.notes.deleteForever({ ids: [a.id] })).resolves.toEqual({ changed: 0 });
    await caller.notes.trash({ ids: [a.id, b.id] });
    expect((await caller.notes.list({ nav: 'all' })).items).toEqual([]);
    expect((await caller.notes.list({ nav: 'trash' })).items).toHaveLength(2);
    await caller.notes.restore({ ids: [a.id] });
    await expect(caller.notes.deleteForever({ ids: [b.id] })).resolves.toEqual({ changed: 1 });
    expect((await caller.notes.list({ nav: 'all' })).items.map((p) => p.title)).toEqual(['Keep me']);
    expect(await deps.orm.em.fork().count(NoteContent, { note: b.id })).toBe(0);
  });

  test('the trash purge deletes what has been there 30 days, by a controllable clock, idempotently', async () => {
    const { caller, user } = await signedInUser(deps);
    const old = await makeNote(user, 'Old', 'text');
    const recent = await makeNote(user, 'Recent', 'text');
    const t0 = new Date('2026-01-01T00:00:00Z');
    await deps.orm.em.fork().nativeUpdate(Note, { id: old.id }, { trashedAt: t0 });
    await deps.orm.em
      .fork()
      .nativeUpdate(Note, { id: recent.id }, { trashedAt: new Date('2026-01-20T00:00:00Z') });
    expect(await purgeTrash(deps.orm.em.fork(), deps.queues, new Date('2026-01-30T23:59:59Z'))).toBe(0);
    expect(await purgeTrash(deps.orm.em.fork(), deps.queues, new Date('2026-01-31T00:00:00Z'))).toBe(1);
    expect(await purgeTrash(deps.orm.em.fork(), deps.queues, new Date('2026-01-31T00:00:00Z'))).toBe(0);
    expect((await caller.notes.list({ nav: 'trash' })).items.map((p) => p.title)).toEqual(['Recent']);
  });

  test('24 Hours shows what was saved or highlighted in the last day', async () => {
    const { caller, user } = await signedInUser(deps);
    const old = await makeNote(user, 'Old but highlighted', 'the text to mark today');
    await makeNote(user, 'Old and quiet', 'nothing');
    const now = clock.now().getTime();
    await deps.orm.em
      .fork()
      .nativeUpdate(Note, { user: user.id }, { createdAt: new Date(now - 3 * 86_400_000) });
    const fresh = await makeNote(user, 'Fresh', 'new');
    await deps.orm.em.fork().nativeUpdate(Note, { id: fresh.id }, { createdAt: new Date(now - 3600_000) });
    await caller.highlights.create({
      id: newId(),
      noteId: old.id,
      coreType: CoreType.textNote,
      text: 'a highlight written just now on it',
    });
    expect((await caller.notes.list({ nav: '24h' })).items.map((p) => p.title).sort()).toEqual([
      'Fresh',
      'Old but highlighted',
    ]);
    expect((await caller.notes.counts())['24h']).toBe(2);
  });

  test('an unknown flow is refused and nothing changes', async () => {
    const { caller, user } = await signedInUser(deps);
    const a = await makeNote(user, 'Alpha', 'text');
    await expect(caller.notes.setFlow({ ids: [a.id], flow: 5 as 1 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    expect((await caller.notes.list({ nav: 'all' })).items[0]?.flow).toBe(Flow.inbox);
  });
});

describe('sorting and pagination', () => {
  test('the note sorts, with cursors that continue where they left off; a position sort (which has no meaning for notes) reads as newest first', async () => {
    const { caller, user } = await signedInUser(deps);
    const notes = [];
    for (const [i, title] of ['One', 'Two', 'Three', 'Four', 'Five'].entries()) {
      const note = await makeNote(user, title, 'text');
      await deps.orm.em
        .fork()
        .nativeUpdate(
          Note,
          { id: note.id },
          { highlightCount: [3, 0, 5, 1, 2][i], updatedAt: new Date(Date.parse('2026-11-01') - i * 1000) },
        );
      notes.push(note);
    }
    const all = async (sort: Parameters<typeof caller.notes.list>[0]['sort']) => {
      const out: string[] = [];
      let cursor: string | null | undefined;
      do {
        const res = await caller.notes.list({ nav: 'all', sort, limit: 2, cursor });
        out.push(...res.items.map((p) => p.title));
        cursor = res.nextCursor;
      } while (cursor);
      return out;
    };
    expect(await all('created-desc')).toEqual(['Five', 'Four', 'Three', 'Two', 'One']);
    expect(await all('created-asc')).toEqual(['One', 'Two', 'Three', 'Four', 'Five']);
    expect(await all('updated-desc')).toEqual(['One', 'Two', 'Three', 'Four', 'Five']);
    expect(await all('updated-asc')).toEqual(['Five', 'Four', 'Three', 'Two', 'One']);
    expect(await all('highlights-desc')).toEqual(['Three', 'One', 'Five', 'Four', 'Two']);
    expect(await all('position-asc')).toEqual(['Five', 'Four', 'Three', 'Two', 'One']);
    await expect(caller.notes.list({ nav: 'all', cursor: 'garbage!' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });
});

describe('search', () => {
  test('CJK one, two and four characters exactly: 默想 never matches 默认, 用户 finds 用户', async () => {
    const { caller, user } = await signedInUser(deps);
    await makeNote(user, '设置', '默认设置已经更新，请重新登录。');
    await makeNote(user, '冥想', '默想是一种安静的练习。');
    await makeNote(user, '产品', '提升用户体验的十个方法。');
    await makeNote(user, '乱序', '体验用户户体的拼写练习。');
    const q = async (query: string) =>
      (await caller.notes.list({ nav: 'all', q: query })).items.map((p) => p.title).sort();
    expect(await q('默想')).toEqual(['冥想']);
    expect(await q('默认')).toEqual(['设置']);
    expect(await q('用户')).toEqual(['乱序', '产品']);
    expect(await q('用户体验')).toEqual(['产品']);
    expect(await q('默')).toEqual(['冥想', '设置']);
  });

  test('a CJK phrase matches within one highlight or the text, never across two highlights', async () => {
    const { caller, user } = await signedInUser(deps);
    const note = await makeNote(user, '分开', 'Nothing in Chinese here.');
    for (const text of ['提升用户', '户体验很好'])
      await caller.highlights.create({ id: newId(), noteId: note.id, coreType: CoreType.textNote, text });
    await makeNote(user, '产品', '提升用户体验的十个方法。');
    const q = async (query: string) =>
      (await caller.notes.list({ nav: 'all', q: query })).items.map((p) => p.title).sort();
    expect(await q('用户体验')).toEqual(['产品']);
    expect(await q('户体验')).toEqual(['产品', '分开']);
    expect(await q('提升用户')).toEqual(['产品', '分开']);
  });

  test('an article longer than a search vector has positions for is still searched exactly', async () => {
    const { caller, user } = await signedInUser(deps);
    // 16,400 CJK characters (none of their bigrams more than 256 times), then the phrase.
    const filler = Array.from({ length: 16_400 }, (_, i) => String.fromCodePoint(0x4e00 + (i % 97))).join('');
    await makeNote(user, '长文', `${filler}，长文末尾的用户画像。`);
    await makeNote(user, '产品', '提升用户体验的十个方法。');
    const q = async (query: string) =>
      (await caller.notes.list({ nav: 'all', q: query })).items.map((p) => p.title).sort();
    expect(await q('用户画像')).toEqual(['长文']);
    expect(await q('画像用户')).toEqual([]);
    expect(await q('用户体验')).toEqual(['产品']);
  });

  test('Latin words by prefix, highlights and annotations count, #tags filter', async () => {
    const { caller, user } = await signedInUser(deps);
    await makeNote(user, 'Gardens', 'Notes on patient gardening.', { tags: ['home'] });
    await makeNote(user, 'Rivers', 'Water moves slowly.', { tags: ['travel'] });
    const p3 = await makeNote(user, 'Cities', 'Streets and squares.', { tags: ['travel'] });
    await caller.highlights.create({
      id: newId(),
      noteId: p3.id,
      coreType: CoreType.textNote,
      text: 'Reminds me of the serendipity of wandering',
    });
    const q = async (query: string) =>
      (await caller.notes.list({ nav: 'all', q: query })).items.map((p) => p.title).sort();
    expect(await q('garden')).toEqual(['Gardens']);
    expect(await q('serendip')).toEqual(['Cities']);
    expect(await q('#travel')).toEqual(['Cities', 'Rivers']);
    expect(await q('#travel water')).toEqual(['Rivers']);
    expect(await q('nothing-like-this')).toEqual([]);
  });
});

describe('tags', () => {
  test('add, remove, rename and merge across notes and highlights; counts; No Tag', async () => {
    const { caller, user } = await signedInUser(deps);
    const a = await makeNote(user, 'A', 'text a');
    const b = await makeNote(user, 'B', 'text b');
    await caller.notes.addTag({ ids: [a.id, b.id], tag: 'reading' });
    await expect(caller.notes.addTag({ ids: [a.id], tag: 'reading' })).resolves.toEqual({ changed: 0 });
    await caller.notes.addTag({ ids: [a.id], tag: 'to-read' });
    await caller.highlights.create({
      id: newId(),
      noteId: a.id,
      coreType: CoreType.textNote,
      text: 'tagged highlight long enough',
      tags: ['to-read'],
    });
    expect(await caller.notes.tags()).toEqual([
      { tag: 'reading', notes: 2, highlights: 0 },
      { tag: 'to-read', notes: 1, highlights: 1 },
    ]);
    await caller.notes.renameTag({ from: 'to-read', to: 'reading' });
    expect(await caller.notes.tags()).toEqual([{ tag: 'reading', notes: 2, highlights: 1 }]);
    await caller.notes.removeTag({ ids: [b.id], tag: 'reading' });
    expect((await caller.notes.list({ nav: 'notag' })).items.map((p) => p.title)).toEqual(['B']);
    await caller.notes.mergeTags({ from: ['reading'], to: 'books' });
    expect((await caller.notes.list({ nav: 'all', tag: 'books' })).items.map((p) => p.title)).toEqual(['A']);
    await expect(caller.notes.addTag({ ids: [a.id], tag: 'a,b' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });
});

describe('folders', () => {
  test('create, nest, rename, move notes, delete (notes stay); the spec’s name rules', async () => {
    const { caller, user } = await signedInUser(deps);
    const note = await makeNote(user, 'Filed', 'text');
    const parent = await caller.folders.create({ name: '  Research  ' });
    expect(parent.name).toBe('Research');
    const child = await caller.folders.create({ name: '论文', parentId: parent.id });
    await caller.notes.moveToFolder({ ids: [note.id], folderId: child.id });
    expect((await caller.notes.list({ nav: 'all', folderId: child.id })).items.map((p) => p.title)).toEqual([
      'Filed',
    ]);
    expect((await caller.folders.list()).find((f) => f.id === child.id)).toMatchObject({
      parentId: parent.id,
      noteCount: 1,
    });
    await caller.folders.rename({ id: child.id, name: 'Papers' });
    await expect(caller.folders.create({ name: 'Papers', parentId: parent.id })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    for (const [name, key] of [
      ['', 'errors.folderNameEmpty'],
      ['a/b', 'errors.folderNameChars'],
      ['a:b', 'errors.folderNameChars'],
      ['a\\b', 'errors.folderNameChars'],
      ['x'.repeat(33), 'errors.folderNameTooLong'],
    ] as const) {
      await expect(caller.folders.create({ name })).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        cause: { issues: [expect.objectContaining({ message: key })] },
      });
    }
    await expect(caller.folders.create({ name: '三'.repeat(32) })).resolves.toMatchObject({
      name: '三'.repeat(32),
    });
    await caller.folders.delete({ id: parent.id });
    expect((await caller.folders.list()).map((f) => f.name)).toEqual(['三'.repeat(32)]);
    expect((await caller.notes.list({ nav: 'all' })).items.map((p) => p.title)).toEqual(['Filed']);
  });
});

describe('another user', () => {
  test("another user's note and folder ids change nothing on any procedure", async () => {
    const owner = await signedInUser(deps);
    const other = await signedInUser(deps);
    const note = await makeNote(owner.user, 'Private', 'secret words');
    const folder = await owner.caller.folders.create({ name: 'Mine' });
    const ids = [note.id];
    for (const call of [
      () => other.caller.notes.setFlow({ ids, flow: Flow.archive }),
      () => other.caller.notes.trash({ ids }),
      () => other.caller.notes.restore({ ids }),
      () => other.caller.notes.deleteForever({ ids }),
      () => other.caller.notes.addTag({ ids, tag: 'x' }),
      () => other.caller.notes.removeTag({ ids, tag: 'x' }),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: 'NOT_FOUND' });
    }
    await expect(other.caller.notes.moveToFolder({ ids, folderId: folder.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(other.caller.folders.rename({ id: folder.id, name: 'Theirs' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(other.caller.folders.delete({ id: folder.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(other.caller.folders.create({ name: 'Child', parentId: folder.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect((await other.caller.notes.list({ nav: 'all', q: 'secret' })).items).toEqual([]);
    await expect(other.caller.notes.list({ nav: 'all', folderId: folder.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await other.caller.notes.tags()).toEqual([]);
    await other.caller.notes.mergeTags({ from: ['x'], to: 'y' });
    const mine = (await owner.caller.notes.list({ nav: 'all' })).items[0];
    expect(mine).toMatchObject({ title: 'Private', flow: Flow.inbox, tags: [] });
    expect((await owner.caller.folders.list()).map((f) => f.name)).toEqual(['Mine']);
  });
});

describe('left-nav counts', () => {
  test('every entry counts what its list shows, through every change to a note; daily notes and another user’s notes never count', async () => {
    const { caller, user } = await signedInUser(deps);
    const other = await signedInUser(deps);
    await makeNote(other.user, 'Theirs', 'text');
    await other.caller.notes.clip({ url: 'https://example.test/theirs' });
    const empty = { all: 0, later: 0, star: 0, archive: 0, unarchive: 0, trash: 0, '24h': 0, notag: 0 };
    expect(await countsAsListed(caller)).toEqual(empty);

    const a = await makeNote(user, 'A', 'text a');
    const b = await makeNote(user, 'B', 'text b');
    const c = await makeNote(user, 'C', 'text c', { tags: ['keep'] });
    const d = await makeNote(user, 'D', 'text d', { flow: Flow.later });
    // Saved now (the others weeks ago), so it is also in 24 Hours.
    const { note: saved } = await caller.notes.clip({ url: 'https://example.test/saved-now' });
    await caller.highlights.create({
      id: newId(),
      noteId: saved.id,
      coreType: CoreType.textNote,
      text: 'new',
    });
    await caller.daily.save({ date: '2026-03-14', text: 'a day', baseText: '', baseVersion: 0 });
    const start = { all: 5, later: 1, star: 0, archive: 0, unarchive: 5, trash: 0, '24h': 1, notag: 4 };
    expect(await countsAsListed(caller)).toEqual(start);

    await caller.notes.setFlow({ ids: [a.id], flow: Flow.later });
    await caller.notes.setFlow({ ids: [b.id], flow: Flow.shortlist });
    await caller.notes.setFlow({ ids: [c.id, d.id], flow: Flow.archive });
    const moved = { ...start, later: 1, star: 1, archive: 2, unarchive: 3 };
    expect(await countsAsListed(caller)).toEqual(moved);

    await caller.notes.addTag({ ids: [a.id, b.id], tag: 'x' });
    expect(await countsAsListed(caller)).toEqual({ ...moved, notag: 2 });
    await caller.notes.removeTag({ ids: [a.id], tag: 'x' });
    await caller.notes.mergeTags({ from: ['x', 'keep'], to: 'y' });
    expect(await countsAsListed(caller)).toEqual({ ...moved, notag: 3 });

    await caller.notes.moveToFolder({
      ids: [a.id],
      folderId: (await caller.folders.create({ name: 'F' })).id,
    });
    await caller.notes.trash({ ids: [a.id, d.id, saved.id] });
    const trashed = { all: 2, later: 0, star: 1, archive: 1, unarchive: 1, trash: 3, '24h': 0, notag: 0 };
    expect(await countsAsListed(caller)).toEqual(trashed);
    await caller.notes.restore({ ids: [a.id] });
    await caller.notes.deleteForever({ ids: [d.id] });
    expect(await countsAsListed(caller)).toEqual({
      ...trashed,
      all: 3,
      later: 1,
      unarchive: 2,
      trash: 1,
      notag: 1,
    });

    // Highlights count only for 24 Hours, and only on a note outside the trash (not `saved`'s).
    const highlight = await caller.highlights.create({
      id: newId(),
      noteId: c.id,
      coreType: CoreType.textNote,
      text: 'highlighted today',
    });
    expect((await countsAsListed(caller))['24h']).toBe(1);
    await caller.highlights.delete({ id: highlight.id });
    expect((await countsAsListed(caller))['24h']).toBe(0);

    await purgeTrash(deps.orm.em.fork(), deps.queues, new Date(clock.now().getTime() + 31 * 86_400_000));
    expect(await countsAsListed(caller)).toEqual({
      ...trashed,
      all: 3,
      later: 1,
      unarchive: 2,
      trash: 0,
      notag: 1,
    });
    expect(await countsAsListed(other.caller)).toEqual({
      ...empty,
      all: 2,
      unarchive: 2,
      '24h': 1,
      notag: 2,
    });
  });

  test('24 Hours counts what was saved or highlighted after exactly a day before now, by the clock', async () => {
    const start = new Date('2026-05-10T12:00:00Z');
    setClock(start);
    try {
      const { caller, user } = await signedInUser(deps);
      const other = await signedInUser(deps);
      const old = await makeNote(user, 'Old, highlighted now', 'text');
      const both = await caller.notes.clip({ url: 'https://example.test/saved-and-highlighted' });
      for (const noteId of [old.id, both.note.id, both.note.id]) {
        await caller.highlights.create({ id: newId(), noteId, coreType: CoreType.textNote, text: 'marked' });
      }
      const binned = await caller.notes.clip({ url: 'https://example.test/binned' });
      await caller.notes.trash({ ids: [binned.note.id] });
      await caller.daily.save({ date: '2026-05-10', text: 'a day', baseText: '', baseVersion: 0 });
      const theirs = await makeNote(other.user, 'Theirs', 'text');
      await other.caller.highlights.create({
        id: newId(),
        noteId: theirs.id,
        coreType: CoreType.textNote,
        text: 'their mark',
      });
      await other.caller.notes.clip({ url: 'https://example.test/theirs-now' });

      expect((await caller.notes.counts())['24h']).toBe(2);
      setClock(new Date(start.getTime() + 86_400_000 - 60_000));
      expect((await caller.notes.counts())['24h']).toBe(2);
      setClock(new Date(start.getTime() + 86_400_000 + 60_000));
      expect((await caller.notes.counts())['24h']).toBe(0);

      // To the millisecond: the newest of those rows is in until a day has passed since it.
      const [row] = await deps.orm.em.fork().execute<{ newest: string }[]>(
        `select greatest((select max(created_at) from note where user_id = ? and kind = ${NoteKind.web} and trashed_at is null),
                         (select max(created_at) from highlight where user_id = ?)) as newest`,
        [user.id, user.id],
      );
      const dayAfter = new Date(row?.newest ?? Number.NaN).getTime() + 86_400_000;
      expect((await navCounts(deps.orm.em.fork(), user, new Date(dayAfter - 1)))['24h']).toBe(1);
      expect((await navCounts(deps.orm.em.fork(), user, new Date(dayAfter)))['24h']).toBe(0);
    } finally {
      setClock(TEST_NOW);
    }
  });
});
