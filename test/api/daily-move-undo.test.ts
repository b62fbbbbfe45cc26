import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { withoutBlock } from '../../server/domain/daily/daily.service.ts';
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

type Reader = Awaited<ReturnType<typeof signedInUser>>;

/** A clipped note with one text highlight on `phrase` (at the start of its text). */
async function highlighted(reader: Reader, phrase: string) {
  const text = `${phrase} and the rest of the page.`;
  const note = await makeClippedNote(deps, reader.user.id, { title: `On ${phrase}`, text });
  return reader.caller.highlights.create({
    id: newId(),
    noteId: note.id,
    coreType: CoreType.highlight,
    selectors: describeRange(text, 0, phrase.length),
  });
}

describe('undoing a move of highlights into a daily note', () => {
  test('the quotes leave today’s note, which reads exactly as before; a second undo changes nothing', async () => {
    const reader = await signedInUser(deps);
    const before = await reader.caller.daily.append({ text: 'Morning pages' });
    const highlight = await highlighted(reader, 'Attention is rare');
    const moved = await reader.caller.daily.moveHighlights({ ids: [highlight.id], target: 'today' });
    expect(moved.id).toBe(before.id);
    expect(moved.text).toContain('> Attention is rare');

    await expect(reader.caller.daily.undoMove({ moveId: moved.moveId })).resolves.toEqual({
      date: moved.date,
    });
    const day = await reader.caller.daily.get({});
    expect(day).toMatchObject({ id: before.id, text: before.text, entries: [] });
    // A new version, so an editor that still shows the quotes merges instead of overwriting.
    expect(day.version).toBe(moved.version + 1);
    expect((await reader.caller.daily.list({ limit: 10, q: 'Attention' })).items).toEqual([]);
    // The highlight itself never moved.
    expect(await reader.caller.highlights.byNote({ id: highlight.noteId ?? '' })).toHaveLength(1);

    await expect(reader.caller.daily.undoMove({ moveId: moved.moveId })).resolves.toEqual({
      date: moved.date,
    });
    expect(await reader.caller.daily.get({})).toEqual(day);
  });

  test('a day that had no note before the move has none after the undo', async () => {
    const reader = await signedInUser(deps);
    const highlight = await highlighted(reader, 'Quiet mornings');
    const moved = await reader.caller.daily.moveHighlights({ ids: [highlight.id], target: 'today' });
    await reader.caller.daily.undoMove({ moveId: moved.moveId });
    await expect(reader.caller.daily.get({})).resolves.toMatchObject({ id: '', text: '', version: 0 });
    expect((await reader.caller.daily.list({ limit: 10 })).items).toEqual([]);
  });

  test('a new daily note made by the move is deleted; the day’s own note is left alone', async () => {
    const reader = await signedInUser(deps);
    const own = await reader.caller.daily.append({ text: 'Own note' });
    const highlight = await highlighted(reader, 'Slow reading');
    const moved = await reader.caller.daily.moveHighlights({ ids: [highlight.id], target: 'new' });
    expect((await reader.caller.daily.get({})).entries.map((e) => e.id)).toEqual([moved.id]);

    await reader.caller.daily.undoMove({ moveId: moved.moveId });
    const day = await reader.caller.daily.get({});
    expect(day).toMatchObject({ id: own.id, text: own.text, version: own.version, entries: [] });
    await reader.caller.daily.undoMove({ moveId: moved.moveId });
    expect(await reader.caller.daily.get({})).toEqual(day);
  });

  test('edits made since the move are kept; undone out of order, each move takes out only its quotes', async () => {
    const reader = await signedInUser(deps);
    const first = await highlighted(reader, 'First thought');
    const second = await highlighted(reader, 'Second thought');
    const movedFirst = await reader.caller.daily.moveHighlights({ ids: [first.id], target: 'today' });
    const movedSecond = await reader.caller.daily.moveHighlights({ ids: [second.id], target: 'today' });
    const edited = await reader.caller.daily.save({
      date: movedSecond.date,
      text: `${movedSecond.text}\n\nWritten after`,
      baseText: movedSecond.text,
      baseVersion: movedSecond.version,
    });

    await reader.caller.daily.undoMove({ moveId: movedFirst.moveId });
    const day = await reader.caller.daily.get({});
    expect(day.text).not.toContain('First thought');
    expect(day.text).toBe(`${movedSecond.text.slice(movedFirst.text.length + 2)}\n\nWritten after`);
    expect(day.version).toBe(edited.version + 1);

    await reader.caller.daily.undoMove({ moveId: movedSecond.moveId });
    await expect(reader.caller.daily.get({})).resolves.toMatchObject({ text: 'Written after' });
  });

  test('quotes changed by hand since are not guessed at: CONFLICT, and nothing changes', async () => {
    const reader = await signedInUser(deps);
    const highlight = await highlighted(reader, 'Deep work');
    const moved = await reader.caller.daily.moveHighlights({ ids: [highlight.id], target: 'today' });
    const edited = moved.text.replace('> Deep work', '> Deep, deep work');
    await reader.caller.daily.save({
      date: moved.date,
      text: edited,
      baseText: moved.text,
      baseVersion: moved.version,
    });
    const before = await reader.caller.daily.get({});
    await expect(reader.caller.daily.undoMove({ moveId: moved.moveId })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'errors.dailyMoveChanged',
    });
    expect(await reader.caller.daily.get({})).toEqual(before);
  });

  test('two undos at once take the quotes out once', async () => {
    const reader = await signedInUser(deps);
    const highlight = await highlighted(reader, 'Twice over');
    await reader.caller.daily.moveHighlights({ ids: [highlight.id], target: 'today' });
    const again = await reader.caller.daily.moveHighlights({ ids: [highlight.id], target: 'today' });
    await Promise.all([
      reader.caller.daily.undoMove({ moveId: again.moveId }),
      reader.caller.daily.undoMove({ moveId: again.moveId }),
    ]);
    const day = await reader.caller.daily.get({});
    expect(day.text.match(/> Twice over/g)).toHaveLength(1);
  });

  test("another user's move cannot be undone: NOT_FOUND, and the owner's note keeps its quotes", async () => {
    const owner = await signedInUser(deps);
    const other = await signedInUser(deps);
    const highlight = await highlighted(owner, 'Private thought');
    const moved = await owner.caller.daily.moveHighlights({ ids: [highlight.id], target: 'today' });
    const otherHighlight = await highlighted(other, 'Other thought');
    await other.caller.daily.moveHighlights({ ids: [otherHighlight.id], target: 'today' });

    for (let attempt = 0; attempt < 2; attempt++) {
      await expect(other.caller.daily.undoMove({ moveId: moved.moveId })).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    }
    await expect(owner.caller.daily.get({})).resolves.toMatchObject({ text: moved.text });
    await expect(other.caller.daily.get({})).resolves.toMatchObject({
      text: expect.stringContaining('> Other thought'),
    });
    await expect(owner.caller.daily.undoMove({ moveId: newId() })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(owner.caller.daily.undoMove({ moveId: 'not an id' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });
});

describe('withoutBlock', () => {
  test('takes out the last copy of the block and the gap an append put before it', () => {
    expect(withoutBlock('a\n\nq', 'q')).toBe('a');
    expect(withoutBlock('q', 'q')).toBe('');
    expect(withoutBlock('a\n\n\n\nq', 'q')).toBe('a\n\n');
    expect(withoutBlock('q\n\nb', 'q')).toBe('b');
    expect(withoutBlock('aq', 'q')).toBe('a');
    expect(withoutBlock('a\n\nq\n\nq', 'q')).toBe('a\n\nq');
    expect(withoutBlock('a', 'q')).toBeNull();
  });
});
