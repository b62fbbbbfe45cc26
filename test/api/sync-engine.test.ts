import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { changesWaiting, type ExportBatch, exportBatch } from '../../server/domain/sync/changes.ts';
import { integrationOf, settingsOf } from '../../server/domain/sync/integrations.service.ts';
import { CoreType, Flow } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { ExcludeRange, type IntegrationSettings, zIntegrationSettings } from '../../src/schemas/sync.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { highlightBody, logSettled, noteWithBody } from '../helpers/sync.ts';
import { signedInUser } from '../helpers/users.ts';

let deps: TestDeps;
beforeAll(async () => {
  deps = await createTestDeps();
});
afterAll(() => deps.close());

type Signed = Awaited<ReturnType<typeof signedInUser>>;

async function scopeFor(user: Signed, settings: Partial<IntegrationSettings> = {}) {
  const em = deps.orm.em.fork();
  const integration = await integrationOf(em, user.user, 'obsidian');
  return {
    integrationId: integration.id,
    generation: integration.generation,
    settings: zIntegrationSettings.parse({ ...settingsOf(integration), ...settings }),
    baseUrl: 'http://margin.test',
  };
}

/** Every page from `cursor` on, as a client reads them: the records and deletions, and where it ends. */
async function readAll(user: Signed, scope: Awaited<ReturnType<typeof scopeFor>>, cursor: string | null) {
  // A first walk starts at the log's settled point: no older transaction (another test file's)
  // may be open, or what was written before would come again after the walk.
  if (cursor === null) await logSettled(deps);
  const pages: ExportBatch[] = [];
  let at = cursor;
  for (;;) {
    const page = await exportBatch(deps.orm.em.fork(), user.user, scope, at);
    pages.push(page);
    at = page.cursor;
    if (!page.hasMore) break;
  }
  return {
    ids: pages.flatMap((p) => p.records.map((r) => r.id)),
    records: pages.flatMap((p) => p.records),
    deleted: pages.flatMap((p) => p.deleted),
    cursor: at as string,
  };
}

/** What a client reads from `cursor` once every change made so far can be read (test/helpers/sync.ts). */
async function readChanges(user: Signed, scope: Awaited<ReturnType<typeof scopeFor>>, cursor: string) {
  await logSettled(deps);
  return readAll(user, scope, cursor);
}

const note = (user: Signed, title: string, extra: { tags?: string[] } = {}) =>
  noteWithBody(deps, user, title, extra.tags);
const highlight = highlightBody;

/** A text note (an unanchored highlight with the user's own words) on a note. */
async function textNote(user: Signed, noteId: string, text: string) {
  return user.caller.highlights.create({ id: newId(), noteId, coreType: CoreType.textNote, text });
}

describe('the export engine', () => {
  test('a first export walks every note in pages, then only what changed is sent', async () => {
    const user = await signedInUser(deps);
    const notes = [];
    for (let i = 0; i < 130; i++) notes.push(await note(user, `Note ${i}`));
    const scope = await scopeFor(user);
    const first = await readAll(user, scope, null);
    expect(new Set(first.ids)).toEqual(new Set(notes.map((n) => n.id)));
    expect(first.ids).toHaveLength(130);

    const again = await readAll(user, scope, first.cursor);
    expect(again.ids).toEqual([]);

    const target = notes[42];
    if (!target) throw new Error('no note');
    const made = await textNote(user, target.id, 'a passage worth keeping');
    const next = await readChanges(user, scope, first.cursor);
    expect(next.ids).toEqual([target.id]);
    expect(next.records[0]?.highlights.map((h) => h.text)).toEqual(['a passage worth keeping']);

    // An annotation re-sends the note; deleting the highlight re-sends it without it.
    await user.caller.highlights.update({ id: made.id, annotation: 'why it matters' });
    const annotated = await readChanges(user, scope, next.cursor);
    expect(annotated.records[0]?.highlights[0]?.annotation).toBe('why it matters');
    await user.caller.highlights.delete({ id: made.id });
    const removed = await readChanges(user, scope, annotated.cursor);
    expect(removed.ids).toEqual([target.id]);
    expect(removed.records[0]?.highlights).toEqual([]);

    // Trashed, then deleted for good: the client is told to remove it both times.
    await user.caller.notes.trash({ ids: [target.id] });
    const trashed = await readChanges(user, scope, removed.cursor);
    expect(trashed).toMatchObject({ ids: [], deleted: [target.id] });
    await user.caller.notes.deleteForever({ ids: [target.id] });
    const purged = await readChanges(user, scope, trashed.cursor);
    expect(purged).toMatchObject({ ids: [], deleted: [target.id] });
  });

  test('a write that changes nothing a sync exports is not a change', async () => {
    const user = await signedInUser(deps);
    const kept = await note(user, 'Unchanged');
    const other = await note(user, 'Changed');
    const scope = await scopeFor(user);
    const { cursor } = await readAll(user, scope, null);
    await deps.orm.em
      .fork()
      .execute(`update note set excerpt = 'new excerpt', word_count = 99 where id = ?`, [kept.id]);
    // A real change after it: once that is read, the excerpt's write would have been too.
    await user.caller.notes.setFlow({ ids: [other.id], flow: Flow.later });
    expect((await readChanges(user, scope, cursor)).ids).toEqual([other.id]);
    await user.caller.notes.setFlow({ ids: [kept.id], flow: Flow.later });
    expect((await readChanges(user, scope, cursor)).ids.sort()).toEqual([kept.id, other.id].sort());
  });

  test('a change whose transaction commits after a later one is not skipped', async () => {
    const user = await signedInUser(deps);
    const slow = await note(user, 'Slow writer');
    const fast = await note(user, 'Fast writer');
    const scope = await scopeFor(user);
    const { cursor } = await readAll(user, scope, null);

    const client = new pg.Client({ connectionString: deps.database.url });
    await client.connect();
    let during: Awaited<ReturnType<typeof readAll>>;
    try {
      // The slow transaction changes its note first, so it holds the older transaction id…
      await client.query('begin');
      await client.query(`update note set title = 'Slow writer, edited' where id = $1`, [slow.id]);
      // …while another commits a change after it.
      await user.caller.notes.setFlow({ ids: [fast.id], flow: Flow.shortlist });
      during = await readAll(user, scope, cursor);
      // Nothing past the open transaction is sent yet, so the cursor cannot pass its change.
      expect(during.ids).toEqual([]);
      await client.query('commit');
    } finally {
      await client.end();
    }
    // From where the read during the open transaction stopped: it must not have passed the slow change.
    const after = await readChanges(user, scope, during.cursor);
    expect(new Set(after.ids)).toEqual(new Set([slow.id, fast.id]));
    expect(after.records.find((r) => r.id === slow.id)?.title).toBe('Slow writer, edited');
  });

  test('a change the last page could not read is still waiting after the transaction ahead of it ends', async () => {
    const user = await signedInUser(deps);
    const behind = await note(user, 'Behind an open transaction');
    const scope = await scopeFor(user);
    const { cursor } = await readAll(user, scope, null);
    const waiting = (at: string) => changesWaiting(deps.orm.em.fork(), user.user.id, scope, at);

    const client = new pg.Client({ connectionString: deps.database.url });
    await client.connect();
    let during: Awaited<ReturnType<typeof readAll>>;
    try {
      // An older transaction with an id: the change after it cannot be read yet.
      await client.query('begin');
      await client.query('select pg_current_xact_id()');
      await textNote(user, behind.id, 'Written while another transaction was open.');
      during = await readAll(user, scope, cursor);
      expect(during.ids).toEqual([]);
      expect(await waiting(during.cursor)).toBe(true);
      await client.query('commit');
    } finally {
      await client.end();
    }
    // Readable now, and still unsent from that cursor: a push that stopped there must come back.
    await logSettled(deps);
    expect(await waiting(during.cursor)).toBe(true);
    const after = await readChanges(user, scope, during.cursor);
    expect(after.ids).toEqual([behind.id]);
    expect(await waiting(after.cursor)).toBe(false);
  });

  test('exclude ranges and the filter narrow what is exported; leaving the filter is a removal', async () => {
    const user = await signedInUser(deps);
    const bare = await note(user, 'No highlights');
    const marked = await note(user, 'With a highlight', { tags: ['keep'] });
    await highlight(user, marked.id);
    await user.caller.daily.save({
      date: '2026-03-01',
      text: 'A day of reading',
      baseText: '',
      baseVersion: 0,
    });

    const all = await readAll(user, await scopeFor(user), null);
    expect(all.records.map((r) => r.kind).sort()).toEqual(['daily', 'page', 'page']);
    expect(all.records.find((r) => r.kind === 'daily')?.content).toBe('A day of reading');

    const withHighlights = await readAll(
      user,
      await scopeFor(user, { excludeRanges: ExcludeRange.withoutHighlights }),
      null,
    );
    expect(withHighlights.records.map((r) => r.kind).sort()).toEqual(['daily', 'page']);
    const pagesOnly = await readAll(
      user,
      await scopeFor(user, { excludeRanges: ExcludeRange.withoutHighlights | ExcludeRange.dailyNotes }),
      null,
    );
    expect(pagesOnly.ids).toEqual([marked.id]);

    const tagged = await scopeFor(user, {
      filter: { tags: ['keep'], folderId: null, flows: [], since: null },
    });
    const first = await readAll(user, tagged, null);
    expect(first.ids).toEqual([marked.id]);
    await user.caller.notes.removeTag({ ids: [marked.id], tag: 'keep' });
    await user.caller.notes.addTag({ ids: [bare.id], tag: 'keep' });
    const moved = await readChanges(user, tagged, first.cursor);
    expect(moved.ids).toEqual([bare.id]);
    expect(moved.deleted).toEqual([marked.id]);
  });

  test("a cursor made for another user's integration is refused", async () => {
    const owner = await signedInUser(deps);
    const other = await signedInUser(deps);
    await note(owner, 'Owner note');
    const ownerScope = await scopeFor(owner);
    const { cursor } = await readAll(owner, ownerScope, null);
    const otherScope = await scopeFor(other);
    await expect(exportBatch(deps.orm.em.fork(), other.user, otherScope, cursor)).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      messageKey: 'errors.syncCursorInvalid',
    });
    for (const bad of [
      '',
      'x',
      `${otherScope.integrationId}.`,
      `${otherScope.integrationId}.!!`,
      `${otherScope.integrationId}.${Buffer.from('c|1|2|3').toString('base64url')}`,
    ]) {
      await expect(
        exportBatch(deps.orm.em.fork(), other.user, otherScope, bad || 'nope'),
      ).rejects.toMatchObject({
        messageKey: 'errors.syncCursorInvalid',
      });
    }
  });

  test('records carry what the tools show', async () => {
    const user = await signedInUser(deps);
    const page = await note(user, '中文标题 and more', { tags: ['读书'] });
    await textNote(user, page.id, 'Euler: $e^{i\\pi}+1=0$');
    const { records } = await readAll(user, await scopeFor(user), null);
    const [record] = records;
    expect(record).toMatchObject({
      id: page.id,
      kind: 'page',
      title: '中文标题 and more',
      tags: ['读书'],
      readerUrl: `http://margin.test/?pi=${page.id}&vs=article`,
    });
    expect(record?.highlights[0]).toMatchObject({ type: 4, text: 'Euler: $e^{i\\pi}+1=0$' });
  });
});

describe('integration settings', () => {
  test('an update changes only what it names; a pulling tool is sent everything again when its output changes', async () => {
    const user = await signedInUser(deps);
    await user.caller.sync.updateSettings({
      app: 'obsidian',
      settings: { writeStyle: 2, tagStyle: 2, folder: 'Reading' },
    });
    const cursorOf = async () => {
      const [row] = await deps.orm.em
        .fork()
        .execute<{ cursor: string | null }[]>(
          `select cursor from integration where user_id = ? and app = 'obsidian'`,
          [user.user.id],
        );
      return row?.cursor ?? null;
    };
    await deps.orm.em
      .fork()
      .execute(`update integration set cursor = 'acknowledged' where user_id = ? and app = 'obsidian'`, [
        user.user.id,
      ]);
    const saved = await user.caller.sync.updateSettings({ app: 'obsidian', settings: { folder: 'Reading' } });
    expect(saved.settings).toMatchObject({ writeStyle: 2, tagStyle: 2, folder: 'Reading' });
    expect(await cursorOf()).toBe('acknowledged');

    const retitled = await user.caller.sync.updateSettings({
      app: 'obsidian',
      settings: { templates: { title: '{{ title }} (Margin)' } },
    });
    expect(retitled.settings).toMatchObject({ writeStyle: 2, tagStyle: 2, folder: 'Reading' });
    expect(retitled.settings.templates.title).toBe('{{ title }} (Margin)');
    expect(await cursorOf()).toBeNull();

    // An impossible day is refused (it would have broken every export query).
    await expect(
      user.caller.sync.updateSettings({
        app: 'obsidian',
        settings: { filter: { tags: [], folderId: null, flows: [], since: '2026-02-30' } },
      }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });

    // A template that does not render is named with its line, and nothing is saved.
    await expect(
      user.caller.sync.updateSettings({
        app: 'obsidian',
        settings: { templates: { note: 'one\ntwo\n{{ title | nope }}' } },
      }),
    ).rejects.toMatchObject({
      cause: { messageKey: 'errors.templateInvalid', params: { template: 'note', line: 3 } },
    });
    expect((await user.caller.sync.integration({ app: 'obsidian' })).settings.templates.note).toBeUndefined();
  });
});

test('run once: every cursor made before it starts over, whichever device holds it', async () => {
  const user = await signedInUser(deps);
  const notes = [await note(user, 'First'), await note(user, 'Second')];
  const before = await scopeFor(user);
  const laptop = await readAll(user, before, null);
  const phone = await readAll(user, before, null);
  await user.caller.sync.runOnce({ app: 'obsidian' });
  const after = await scopeFor(user);
  expect(after.generation).toBe(before.generation + 1);
  // The laptop syncs first and goes on from the new start; the phone's old cursor starts over too.
  for (const device of [laptop, phone]) {
    const again = await readAll(user, after, device.cursor);
    expect(again.ids.sort()).toEqual(notes.map((n) => n.id).sort());
  }
});

test('a folder that steps out of the vault with .. is refused, and nothing is saved', async () => {
  const user = await signedInUser(deps);
  for (const folder of ['..', '../outside', 'Margin/../../x', 'a\\..\\b']) {
    await expect(
      user.caller.sync.updateSettings({ app: 'obsidian', settings: { folder } }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  }
  expect((await user.caller.sync.integration({ app: 'obsidian' })).settings.folder).toBe('Margin');
  await user.caller.sync.updateSettings({ app: 'obsidian', settings: { folder: 'Reading/2026..notes' } });
});
