import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clock } from '../../server/clock.ts';
import { Page, PageContent, type User } from '../../server/db/entities/index.ts';
import { purgeTrash } from '../../server/domain/library/library.service.ts';
import { CoreType, Flow } from '../../src/enums.ts';
import { newNoteId } from '../../src/rules/note-id.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { makeClippedPage } from '../helpers/pages.ts';
import { signedInUser } from '../helpers/users.ts';

let deps: TestDeps;
beforeAll(async () => {
  deps = await createTestDeps();
});
afterAll(() => deps.close());

/** A clipped page of `user`, made straight in the database. */
function makePage(user: User, title: string, text: string, extra: { tags?: string[]; flow?: number } = {}) {
  return makeClippedPage(deps, user.id, { title, text, ...extra });
}

describe('states and transitions', () => {
  test('later, star, archive, unarchive; each left-nav entry lists what it should, with counts', async () => {
    const { caller, user } = await signedInUser(deps);
    const a = await makePage(user, 'Alpha', 'first text');
    const b = await makePage(user, 'Beta', 'second text');
    const c = await makePage(user, 'Gamma', 'third text', { tags: ['keep'] });
    await caller.library.setFlow({ ids: [a.id], flow: Flow.later });
    await caller.library.setFlow({ ids: [b.id], flow: Flow.shortlist });
    await caller.library.setFlow({ ids: [c.id], flow: Flow.archive });
    const titles = async (nav: 'all' | 'later' | 'star' | 'archive' | 'unarchive' | 'notag' | 'trash') =>
      (await caller.library.list({ nav })).items.map((p) => p.title);
    expect(await titles('later')).toEqual(['Alpha']);
    expect(await titles('star')).toEqual(['Beta']);
    expect(await titles('archive')).toEqual(['Gamma']);
    expect(await titles('unarchive')).toEqual(['Beta', 'Alpha']);
    expect(await titles('notag')).toEqual(['Beta', 'Alpha']);
    expect(await titles('all')).toEqual(['Gamma', 'Beta', 'Alpha']);
    await caller.library.setFlow({ ids: [c.id], flow: Flow.inbox });
    expect(await titles('archive')).toEqual([]);
    expect(await caller.library.counts()).toMatchObject({
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
    const a = await makePage(user, 'Keep me', 'text');
    const b = await makePage(user, 'Bin me', 'text');
    await expect(caller.library.deleteForever({ ids: [a.id] })).resolves.toEqual({ changed: 0 });
    await caller.library.trash({ ids: [a.id, b.id] });
    expect((await caller.library.list({ nav: 'all' })).items).toEqual([]);
    expect((await caller.library.list({ nav: 'trash' })).items).toHaveLength(2);
    await caller.library.restore({ ids: [a.id] });
    await expect(caller.library.deleteForever({ ids: [b.id] })).resolves.toEqual({ changed: 1 });
    expect((await caller.library.list({ nav: 'all' })).items.map((p) => p.title)).toEqual(['Keep me']);
    expect(await deps.orm.em.fork().count(PageContent, { page: b.id })).toBe(0);
  });

  test('the trash purge deletes what has been there 30 days, by a controllable clock, idempotently', async () => {
    const { caller, user } = await signedInUser(deps);
    const old = await makePage(user, 'Old', 'text');
    const recent = await makePage(user, 'Recent', 'text');
    const t0 = new Date('2026-01-01T00:00:00Z');
    await deps.orm.em.fork().nativeUpdate(Page, { id: old.id }, { trashedAt: t0 });
    await deps.orm.em
      .fork()
      .nativeUpdate(Page, { id: recent.id }, { trashedAt: new Date('2026-01-20T00:00:00Z') });
    expect(await purgeTrash(deps.orm.em.fork(), new Date('2026-01-30T23:59:59Z'))).toBe(0);
    expect(await purgeTrash(deps.orm.em.fork(), new Date('2026-01-31T00:00:00Z'))).toBe(1);
    expect(await purgeTrash(deps.orm.em.fork(), new Date('2026-01-31T00:00:00Z'))).toBe(0);
    expect((await caller.library.list({ nav: 'trash' })).items.map((p) => p.title)).toEqual(['Recent']);
  });

  test('24 Hours shows what was saved or highlighted in the last day', async () => {
    const { caller, user } = await signedInUser(deps);
    const old = await makePage(user, 'Old but highlighted', 'the text to mark today');
    await makePage(user, 'Old and quiet', 'nothing');
    const now = clock.now().getTime();
    await deps.orm.em
      .fork()
      .nativeUpdate(Page, { user: user.id }, { createdAt: new Date(now - 3 * 86_400_000) });
    const fresh = await makePage(user, 'Fresh', 'new');
    await deps.orm.em.fork().nativeUpdate(Page, { id: fresh.id }, { createdAt: new Date(now - 3600_000) });
    await caller.highlights.create({
      id: newNoteId(),
      pageId: old.id,
      coreType: CoreType.textNote,
      text: 'a note written just now on it',
    });
    expect((await caller.library.list({ nav: '24h' })).items.map((p) => p.title).sort()).toEqual([
      'Fresh',
      'Old but highlighted',
    ]);
    expect((await caller.library.counts())['24h']).toBe(2);
  });

  test('an unknown flow is refused and nothing changes', async () => {
    const { caller, user } = await signedInUser(deps);
    const a = await makePage(user, 'Alpha', 'text');
    await expect(caller.library.setFlow({ ids: [a.id], flow: 5 as 1 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    expect((await caller.library.list({ nav: 'all' })).items[0]?.flow).toBe(Flow.inbox);
  });
});

describe('sorting and pagination', () => {
  test('the six sorts, with cursors that continue where they left off', async () => {
    const { caller, user } = await signedInUser(deps);
    const pages = [];
    for (const [i, title] of ['One', 'Two', 'Three', 'Four', 'Five'].entries()) {
      const page = await makePage(user, title, 'text');
      await deps.orm.em
        .fork()
        .nativeUpdate(
          Page,
          { id: page.id },
          { highlightCount: [3, 0, 5, 1, 2][i], updatedAt: new Date(Date.parse('2026-11-01') - i * 1000) },
        );
      pages.push(page);
    }
    const all = async (sort: Parameters<typeof caller.library.list>[0]['sort']) => {
      const out: string[] = [];
      let cursor: string | null | undefined;
      do {
        const res = await caller.library.list({ nav: 'all', sort, limit: 2, cursor });
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
    expect(await all('position-asc')).toEqual(['One', 'Two', 'Three', 'Four', 'Five']);
    await expect(caller.library.list({ nav: 'all', cursor: 'garbage!' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });
});

describe('search', () => {
  test('CJK one, two and four characters exactly: 默想 never matches 默认, 用户 finds 用户', async () => {
    const { caller, user } = await signedInUser(deps);
    await makePage(user, '设置', '默认设置已经更新，请重新登录。');
    await makePage(user, '冥想', '默想是一种安静的练习。');
    await makePage(user, '产品', '提升用户体验的十个方法。');
    await makePage(user, '乱序', '体验用户户体的拼写练习。');
    const q = async (query: string) =>
      (await caller.library.list({ nav: 'all', q: query })).items.map((p) => p.title).sort();
    expect(await q('默想')).toEqual(['冥想']);
    expect(await q('默认')).toEqual(['设置']);
    expect(await q('用户')).toEqual(['乱序', '产品']);
    expect(await q('用户体验')).toEqual(['产品']);
    expect(await q('默')).toEqual(['冥想', '设置']);
  });

  test('Latin words by prefix, highlights and annotations count, #tags filter', async () => {
    const { caller, user } = await signedInUser(deps);
    const p1 = await makePage(user, 'Gardens', 'Notes on patient gardening.', { tags: ['home'] });
    await makePage(user, 'Rivers', 'Water moves slowly.', { tags: ['travel'] });
    const p3 = await makePage(user, 'Cities', 'Streets and squares.', { tags: ['travel'] });
    await caller.highlights.create({
      id: newNoteId(),
      pageId: p3.id,
      coreType: CoreType.textNote,
      text: 'Reminds me of the serendipity of wandering',
    });
    const q = async (query: string) =>
      (await caller.library.list({ nav: 'all', q: query })).items.map((p) => p.title).sort();
    expect(await q('garden')).toEqual(['Gardens']);
    expect(await q('serendip')).toEqual(['Cities']);
    expect(await q('#travel')).toEqual(['Cities', 'Rivers']);
    expect(await q('#travel water')).toEqual(['Rivers']);
    expect(await q('nothing-like-this')).toEqual([]);
    expect(p1.id).toBeTruthy();
  });
});

describe('tags', () => {
  test('add, remove, rename and merge across pages and highlights; counts; No Tag', async () => {
    const { caller, user } = await signedInUser(deps);
    const a = await makePage(user, 'A', 'text a');
    const b = await makePage(user, 'B', 'text b');
    await caller.library.addTag({ ids: [a.id, b.id], tag: 'reading' });
    await expect(caller.library.addTag({ ids: [a.id], tag: 'reading' })).resolves.toEqual({ changed: 0 });
    await caller.library.addTag({ ids: [a.id], tag: 'to-read' });
    await caller.highlights.create({
      id: newNoteId(),
      pageId: a.id,
      coreType: CoreType.textNote,
      text: 'tagged note long enough',
      tags: ['to-read'],
    });
    expect(await caller.library.tags()).toEqual([
      { tag: 'reading', pages: 2, highlights: 0 },
      { tag: 'to-read', pages: 1, highlights: 1 },
    ]);
    await caller.library.renameTag({ from: 'to-read', to: 'reading' });
    expect(await caller.library.tags()).toEqual([{ tag: 'reading', pages: 2, highlights: 1 }]);
    await caller.library.removeTag({ ids: [b.id], tag: 'reading' });
    expect((await caller.library.list({ nav: 'notag' })).items.map((p) => p.title)).toEqual(['B']);
    await caller.library.mergeTags({ from: ['reading'], to: 'books' });
    expect((await caller.library.list({ nav: 'all', tag: 'books' })).items.map((p) => p.title)).toEqual([
      'A',
    ]);
    await expect(caller.library.addTag({ ids: [a.id], tag: 'a,b' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });
});

describe('folders', () => {
  test('create, nest, rename, move pages, delete (pages stay); the spec’s name rules', async () => {
    const { caller, user } = await signedInUser(deps);
    const page = await makePage(user, 'Filed', 'text');
    const parent = await caller.library.createFolder({ name: '  Research  ' });
    expect(parent.name).toBe('Research');
    const child = await caller.library.createFolder({ name: '论文', parentId: parent.id });
    await caller.library.moveToFolder({ ids: [page.id], folderId: child.id });
    expect((await caller.library.list({ nav: 'all', folderId: child.id })).items.map((p) => p.title)).toEqual(
      ['Filed'],
    );
    expect((await caller.library.folders()).find((f) => f.id === child.id)).toMatchObject({
      parentId: parent.id,
      pageCount: 1,
    });
    await caller.library.renameFolder({ id: child.id, name: 'Papers' });
    await expect(caller.library.createFolder({ name: 'Papers', parentId: parent.id })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    for (const [name, key] of [
      ['', 'errors.folderNameEmpty'],
      ['a/b', 'errors.folderNameChars'],
      ['a:b', 'errors.folderNameChars'],
      ['a\\b', 'errors.folderNameChars'],
      ['x'.repeat(33), 'errors.folderNameTooLong'],
    ] as const) {
      await expect(caller.library.createFolder({ name })).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        cause: { issues: [expect.objectContaining({ message: key })] },
      });
    }
    await expect(caller.library.createFolder({ name: '三'.repeat(32) })).resolves.toMatchObject({
      name: '三'.repeat(32),
    });
    await caller.library.deleteFolder({ id: parent.id });
    expect((await caller.library.folders()).map((f) => f.name)).toEqual(['三'.repeat(32)]);
    expect((await caller.library.list({ nav: 'all' })).items.map((p) => p.title)).toEqual(['Filed']);
  });
});

describe('another user', () => {
  test("another user's page and folder ids change nothing on any procedure", async () => {
    const owner = await signedInUser(deps);
    const other = await signedInUser(deps);
    const page = await makePage(owner.user, 'Private', 'secret words');
    const folder = await owner.caller.library.createFolder({ name: 'Mine' });
    const ids = [page.id];
    for (const call of [
      () => other.caller.library.setFlow({ ids, flow: Flow.archive }),
      () => other.caller.library.trash({ ids }),
      () => other.caller.library.restore({ ids }),
      () => other.caller.library.deleteForever({ ids }),
      () => other.caller.library.addTag({ ids, tag: 'x' }),
      () => other.caller.library.removeTag({ ids, tag: 'x' }),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: 'NOT_FOUND' });
    }
    await expect(other.caller.library.moveToFolder({ ids, folderId: folder.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(other.caller.library.renameFolder({ id: folder.id, name: 'Theirs' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(other.caller.library.deleteFolder({ id: folder.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(
      other.caller.library.createFolder({ name: 'Child', parentId: folder.id }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await other.caller.library.list({ nav: 'all', q: 'secret' })).items).toEqual([]);
    await expect(other.caller.library.list({ nav: 'all', folderId: folder.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await other.caller.library.tags()).toEqual([]);
    await other.caller.library.mergeTags({ from: ['x'], to: 'y' });
    const mine = (await owner.caller.library.list({ nav: 'all' })).items[0];
    expect(mine).toMatchObject({ title: 'Private', flow: Flow.inbox, tags: [] });
    expect((await owner.caller.library.folders()).map((f) => f.name)).toEqual(['Mine']);
  });
});
