import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { describeRange } from '../../src/anchoring/index.ts';
import { CoreType, HighlightSort } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { makeClippedNote } from '../helpers/notes.ts';
import { signedInUser } from '../helpers/users.ts';

let deps: TestDeps;

beforeAll(async () => {
  deps = await createTestDeps();
});
afterAll(async () => {
  await deps.close();
});

type Caller = Awaited<ReturnType<typeof signedInUser>>['caller'];

const TEXT =
  'First comes the opening line. Then a middle sentence follows. At last the closing words arrive.';

/** Highlights `phrase` of the note's text; answers its id. */
async function highlight(caller: Caller, noteId: string, phrase: string): Promise<string> {
  const start = TEXT.indexOf(phrase);
  const id = newId();
  await caller.highlights.create({
    id,
    noteId,
    coreType: CoreType.highlight,
    selectors: describeRange(TEXT, start, start + phrase.length),
  });
  return id;
}

/** Every page of the list in article order, `limit` at a time: the texts in the order listed. */
async function allPages(caller: Caller, input: { limit: number; noteId?: string; slotId?: number }) {
  const texts: string[] = [];
  const pages: number[] = [];
  let cursor: string | null = null;
  do {
    const page = await caller.highlights.list({ ...input, sort: HighlightSort.positionInArticle, cursor });
    texts.push(...page.items.map((item) => `${item.note?.title}: ${item.text}`));
    pages.push(page.items.length);
    cursor = page.nextCursor;
  } while (cursor);
  return { texts, pages };
}

describe('highlights in article order', () => {
  test('grouped by note, newest saved note first; within a note by place, placeless ones last; exact across pages', async () => {
    const { user, caller } = await signedInUser(deps);
    const other = await signedInUser(deps);
    const older = await makeClippedNote(deps, user.id, { title: 'Older', text: TEXT });
    const newer = await makeClippedNote(deps, user.id, { title: 'Newer', text: TEXT });
    const theirs = await makeClippedNote(deps, other.user.id, { title: 'Theirs', text: TEXT });

    // Made out of order, interleaved across the two notes, with another user's in between.
    await highlight(caller, older.id, 'closing words');
    await highlight(caller, newer.id, 'middle sentence');
    await highlight(other.caller, theirs.id, 'opening line');
    await caller.highlights.create({
      id: newId(),
      noteId: newer.id,
      coreType: CoreType.textNote,
      text: 'A page note',
    });
    await highlight(caller, older.id, 'opening line');
    await highlight(caller, newer.id, 'closing words');
    await highlight(caller, older.id, 'middle sentence');
    await highlight(caller, newer.id, 'opening line');
    await highlight(other.caller, theirs.id, 'closing words');

    const expected = [
      'Newer: opening line',
      'Newer: middle sentence',
      'Newer: closing words',
      'Newer: A page note',
      'Older: opening line',
      'Older: middle sentence',
      'Older: closing words',
    ];
    for (const limit of [1, 2, 3, 50]) {
      const { texts, pages } = await allPages(caller, { limit });
      expect(texts, `limit ${limit}`).toEqual(expected);
      expect(pages.every((n) => n <= limit)).toBe(true);
    }
    // Filters keep the order.
    expect((await allPages(caller, { limit: 2, noteId: older.id })).texts).toEqual(expected.slice(4));
    // The other user sees only theirs.
    expect((await allPages(other.caller, { limit: 1 })).texts).toEqual([
      'Theirs: opening line',
      'Theirs: closing words',
    ]);
    // Newest first is unchanged beside it.
    const newest = await caller.highlights.list({ limit: 50 });
    expect(newest.items.map((item) => item.text).at(0)).toBe('opening line');
    expect(newest.items.map((item) => item.note?.title).at(0)).toBe('Newer');
  });

  test('a cursor of the other order, or one tampered with, is refused with a 400', async () => {
    const { user, caller } = await signedInUser(deps);
    const note = await makeClippedNote(deps, user.id, { title: 'One', text: TEXT });
    await highlight(caller, note.id, 'opening line');
    await highlight(caller, note.id, 'closing words');
    const newestCursor = (await caller.highlights.list({ limit: 1 })).nextCursor;
    const articleCursor = (await caller.highlights.list({ limit: 1, sort: HighlightSort.positionInArticle }))
      .nextCursor;
    expect(newestCursor).toBeTruthy();
    expect(articleCursor).toBeTruthy();
    const refused = { code: 'BAD_REQUEST', message: 'errors.invalidCursor' };
    await expect(
      caller.highlights.list({ limit: 1, sort: HighlightSort.positionInArticle, cursor: newestCursor }),
    ).rejects.toMatchObject(refused);
    await expect(caller.highlights.list({ limit: 1, cursor: articleCursor })).rejects.toMatchObject(refused);
    const decoded = JSON.parse(Buffer.from(articleCursor as string, 'base64url').toString()) as unknown[];
    for (const bad of [
      [...decoded.slice(0, 2), -1, ...decoded.slice(3)],
      [...decoded.slice(0, 2), 1.5, ...decoded.slice(3)],
      [decoded[0], "x' or 1=1", ...decoded.slice(2)],
      ['yesterday', ...decoded.slice(1)],
      decoded.slice(1),
    ]) {
      const cursor = Buffer.from(JSON.stringify(bad)).toString('base64url');
      await expect(
        caller.highlights.list({ limit: 1, sort: HighlightSort.positionInArticle, cursor }),
      ).rejects.toMatchObject(refused);
    }
  });
});
