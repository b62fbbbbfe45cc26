import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { User } from '../../server/db/entities/index.ts';
import { appendToToday, today } from '../../server/domain/daily/daily.service.ts';
import { describeRange } from '../../src/anchoring/index.ts';
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

describe('daily notes', () => {
  test('a daily note is a note the list never shows and its procedures never reach', async () => {
    const { caller, user } = await signedInUser(deps);
    const web = await makeClippedNote(deps, user.id, { title: 'A page', text: 'Some text.' });
    const day = await caller.daily.save({
      date: '2026-04-01',
      text: 'Dear diary',
      baseText: '',
      baseVersion: 0,
    });
    const before = await caller.notes.counts();
    expect((await caller.notes.list({})).items.map((n) => n.id)).toEqual([web.id]);
    expect(before.all).toBe(1);
    const ids = { ids: [day.id] };
    await expect(caller.notes.get({ id: day.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(caller.notes.trash(ids)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(caller.notes.setFlow({ ...ids, flow: 2 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(caller.notes.addTag({ ...ids, tag: 'x' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(caller.notes.moveToFolder({ ...ids, folderId: null })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(
      caller.highlights.create({ id: newId(), noteId: day.id, coreType: CoreType.textNote, text: 'x' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await caller.notes.counts()).toEqual(before);
    expect(await caller.daily.get({ date: '2026-04-01' })).toMatchObject({ id: day.id, text: 'Dear diary' });
  });

  test("the day follows the user's time zone across midnight", async () => {
    const { caller, user } = await signedInUser(deps);
    await caller.account.setTimeZone({ timeZone: 'Asia/Shanghai' });
    const fresh = await deps.orm.em.fork().findOneOrFail(User, { id: user.id });
    // 2026-03-01 17:30 UTC is already 2026-03-02 01:30 in Shanghai, still 2026-03-01 in New York.
    const instant = new Date('2026-03-01T17:30:00Z');
    expect(today(fresh, instant)).toBe('2026-03-02');
    expect(today({ ...fresh, timeZone: 'America/New_York' } as User, instant)).toBe('2026-03-01');
    const note = await appendToToday(
      { ...deps, em: deps.orm.em.fork() },
      fresh,
      'late night thought',
      instant,
    );
    expect(note).toMatchObject({ date: '2026-03-02', text: '**01:30** late night thought' });
    await expect(caller.account.setTimeZone({ timeZone: 'Mars/Olympus' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  test('a day is created on first write; autosave bumps the version', async () => {
    const { caller } = await signedInUser(deps);
    const empty = await caller.daily.get({ date: '2026-05-01' });
    expect(empty).toMatchObject({ text: '', version: 0, entries: [] });
    const saved = await caller.daily.save({
      date: '2026-05-01',
      text: 'Dear diary',
      baseText: '',
      baseVersion: 0,
    });
    expect(saved).toMatchObject({ text: 'Dear diary', version: 1, merged: false });
    await expect(caller.daily.get({ date: '2026-05-01' })).resolves.toMatchObject({
      text: 'Dear diary',
      version: 1,
    });
  });

  test('concurrent appends from two tabs lose nothing', async () => {
    const { caller } = await signedInUser(deps);
    const entries = Array.from({ length: 20 }, (_, i) => `entry number ${i}`);
    await Promise.all(entries.map((text) => caller.daily.append({ text })));
    const day = await caller.daily.get({});
    for (const e of entries) expect(day.text).toContain(e);
    expect(day.version).toBe(20);
  });

  test('two tabs saving from the same version: both edits survive the merge', async () => {
    const { caller } = await signedInUser(deps);
    const base = await caller.daily.save({
      date: '2026-06-01',
      text: 'line one\nline two',
      baseText: '',
      baseVersion: 0,
    });
    const tabA = caller.daily.save({
      date: '2026-06-01',
      text: 'line one (A)\nline two',
      baseText: base.text,
      baseVersion: base.version,
    });
    const tabB = caller.daily.save({
      date: '2026-06-01',
      text: 'line one\nline two\nline three (B)',
      baseText: base.text,
      baseVersion: base.version,
    });
    const results = await Promise.all([tabA, tabB]);
    expect(results.filter((r) => r.merged)).toHaveLength(1);
    const day = await caller.daily.get({ date: '2026-06-01' });
    expect(day.text).toBe('line one (A)\nline two\nline three (B)');
  });

  test('highlights move into today’s note or a new daily note, linking back to the source', async () => {
    const { caller, user } = await signedInUser(deps);
    const text = 'Attention is the rarest and purest form of generosity.';
    const page = await makeClippedNote(deps, user.id, { title: 'On attention', text });
    const h = await caller.highlights.create({
      id: newId(),
      noteId: page.id,
      coreType: CoreType.highlight,
      selectors: describeRange(text, 0, 9),
    });
    const todayNote = await caller.daily.moveHighlights({ ids: [h.id], target: 'today' });
    expect(todayNote.text).toContain('> Attention');
    expect(todayNote.text).toContain(`[On attention](/?pi=${page.id}&vs=article)`);
    expect(todayNote.text).toContain(`/?nx=${h.id}&vs=article`);
    const entry = await caller.daily.moveHighlights({ ids: [h.id], target: 'new' });
    expect(entry.id).not.toBe(todayNote.id);
    const day = await caller.daily.get({});
    expect(day.entries.map((e) => e.id)).toEqual([entry.id]);
  });

  test('the timeline lists days newest first and searches daily notes, CJK included', async () => {
    const { caller } = await signedInUser(deps);
    await caller.daily.save({
      date: '2026-01-01',
      text: '新年第一天，用户访谈。',
      baseText: '',
      baseVersion: 0,
    });
    await caller.daily.save({
      date: '2026-01-02',
      text: 'Reading about gardens.',
      baseText: '',
      baseVersion: 0,
    });
    await caller.daily.save({ date: '2026-01-03', text: '默认的早晨。', baseText: '', baseVersion: 0 });
    const first = await caller.daily.list({ limit: 2 });
    expect(first.items.map((d) => d.date)).toEqual(['2026-01-03', '2026-01-02']);
    const rest = await caller.daily.list({ limit: 2, cursor: first.nextCursor });
    expect(rest.items.map((d) => d.date)).toEqual(['2026-01-01']);
    expect((await caller.daily.list({ limit: 10, q: '用户' })).items.map((d) => d.date)).toEqual([
      '2026-01-01',
    ]);
    expect((await caller.daily.list({ limit: 10, q: '默想' })).items).toEqual([]);
    expect((await caller.daily.list({ limit: 10, q: 'garden' })).items.map((d) => d.date)).toEqual([
      '2026-01-02',
    ]);
    const md = await caller.daily.export({ date: '2026-01-02', format: 'markdown' });
    expect(md.content).toBe('# 2026-01-02\n\nReading about gardens.\n');
  });

  test("another user's daily notes and highlights are out of reach", async () => {
    const owner = await signedInUser(deps);
    const other = await signedInUser(deps);
    await owner.caller.daily.save({ date: '2026-02-02', text: 'private', baseText: '', baseVersion: 0 });
    await expect(other.caller.daily.get({ date: '2026-02-02' })).resolves.toMatchObject({
      text: '',
      version: 0,
    });
    await other.caller.daily.save({ date: '2026-02-02', text: 'mine', baseText: '', baseVersion: 0 });
    await expect(owner.caller.daily.get({ date: '2026-02-02' })).resolves.toMatchObject({ text: 'private' });
    const page = await makeClippedNote(deps, owner.user.id, { title: 't', text: 'owner text' });
    const h = await owner.caller.highlights.create({
      id: newId(),
      noteId: page.id,
      coreType: CoreType.textNote,
      text: 'owner note long enough',
    });
    await expect(other.caller.daily.moveHighlights({ ids: [h.id], target: 'today' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect((await other.caller.daily.list({ limit: 10, q: 'private' })).items).toEqual([]);
  });

  test("a day's note has an id nobody can derive, and another user taking that id changes nothing", async () => {
    const owner = await signedInUser(deps);
    const other = await signedInUser(deps);
    const days = ['2026-06-01', '2026-06-02'];
    const notes = await Promise.all(
      days.map((date) =>
        owner.caller.daily.save({ date, text: `day ${date}`, baseText: '', baseVersion: 0 }),
      ),
    );
    const ids = notes.map((n) => n.id);
    for (const [i, id] of ids.entries()) {
      expect(id).toMatch(/^[0-9A-Za-z-]{21,}$/);
      // Not the old formula, nor anything else built from the user and the day.
      expect(id).not.toBe(`daily-${owner.user.id}-${days[i]?.replaceAll('-', '')}`);
      expect(id).not.toContain('daily');
    }
    expect(ids[0]).not.toBe(ids[1]);
    // The old squat: the other user creates a note under the owner's daily id first.
    const page = await makeClippedNote(deps, other.user.id, { title: 't', text: 'other text' });
    await other.caller.highlights.create({
      id: ids[0] as string,
      noteId: page.id,
      coreType: CoreType.textNote,
      text: 'squatting attempt',
    });
    await expect(owner.caller.daily.get({ date: '2026-06-01' })).resolves.toMatchObject({
      id: ids[0],
      text: 'day 2026-06-01',
    });
    await expect(owner.caller.highlights.locate({ id: ids[0] as string })).resolves.toEqual({
      noteId: null,
      dailyDate: '2026-06-01',
    });
    const next = await owner.caller.daily.save({
      date: '2026-06-01',
      text: 'day 2026-06-01, edited',
      baseText: 'day 2026-06-01',
      baseVersion: 1,
    });
    expect(next).toMatchObject({ id: ids[0], version: 2, merged: false });
  });

  test('concurrent first saves of a day create one note', async () => {
    const { caller } = await signedInUser(deps);
    const saves = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        caller.daily.save({ date: '2026-07-01', text: `tab ${i}`, baseText: '', baseVersion: 0 }),
      ),
    );
    expect(new Set(saves.map((s) => s.id)).size).toBe(1);
    const day = await caller.daily.get({ date: '2026-07-01' });
    expect(day).toMatchObject({ id: saves[0]?.id, version: 8, entries: [] });
  });
});
