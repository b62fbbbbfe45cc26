import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listNotesJson } from '../../server/domain/notes/note-list.ts';
import { SortOrder } from '../../src/enums.ts';
import { type NoteList, type NoteListInput, zNoteList } from '../../src/schemas/notes.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { makeClippedNote } from '../helpers/notes.ts';
import { signedInUser } from '../helpers/users.ts';

// A search with a CJK phrase looks among the first rows of the view's order (a window) before
// the whole view (note-list.ts, SEARCH_WINDOW). Held here: with windows far smaller than the
// library, every page of every view and sort, walked with its cursors, is byte for byte the page
// the whole view's search gives, with matches inside and outside each window and sort values
// shared by several notes wherever a window ends.

let deps: TestDeps;
let user: Awaited<ReturnType<typeof signedInUser>>['user'];

const PHRASE = '用户体验';
/** Texts that match the phrase, that hold its bigrams in another order (candidates only), or neither. */
const MATCHES = [`关于${PHRASE}的笔记`, `a note on ${PHRASE}`];
const CANDIDATE = '体验用户户体 only the bigrams';
const NEITHER = 'nothing to find here';
const NOTES = 48;

beforeAll(async () => {
  deps = await createTestDeps();
  ({ user } = await signedInUser(deps));
  const em = deps.orm.em.fork();
  for (let i = 0; i < NOTES; i++) {
    // Matches in runs and gaps, so some windows hold a page and some do not.
    const text = i % 7 < 3 ? (MATCHES[i % 2] as string) : i % 7 === 3 ? CANDIDATE : NEITHER;
    const note = await makeClippedNote(deps, user.id, {
      title: i % 5 === 0 ? `${PHRASE} title ${i}` : `Note ${i}`,
      text,
      flow: i % 3 === 0 ? 2 : 1,
    });
    // Three notes at each creation time and four at each update time, highlight counts 0–3:
    // every window's last value is shared, and only the id orders those notes.
    await em.execute(
      `update note set created_at = ?, updated_at = ?, highlight_count = ?, trashed_at = ? where id = ?`,
      [
        new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 3) * 60_000),
        new Date(Date.UTC(2026, 0, 2) + ((i * 7) % 12) * 60_000),
        i % 4,
        i % 8 === 5 ? new Date(Date.UTC(2026, 0, 3)) : null,
        note.id,
      ],
    );
  }
});
afterAll(() => deps?.close());

/** Every page of `input`, following each page's cursor: its JSON text per page. */
async function pages(input: NoteListInput, window: number | null): Promise<string[]> {
  const texts: string[] = [];
  let cursor: string | null = null;
  do {
    const text = await listNotesJson(deps.orm.em.fork(), user, { ...input, cursor }, undefined, null);
    const windowed = await listNotesJson(deps.orm.em.fork(), user, { ...input, cursor }, undefined, window);
    expect(windowed).toBe(text);
    texts.push(text);
    cursor = (zNoteList.parse(JSON.parse(text)) as NoteList).nextCursor;
  } while (cursor && texts.length <= NOTES);
  return texts;
}

describe('a windowed search', () => {
  test('gives the whole search page for page, in every view and sort, for windows of every size', async () => {
    let found = 0;
    for (const nav of ['all', 'later', 'trash'] as const) {
      for (const sort of Object.values(SortOrder)) {
        for (const limit of [1, 3]) {
          const input: NoteListInput = { nav, sort, limit, q: PHRASE };
          const whole = await listNotesJson(
            deps.orm.em.fork(),
            user,
            { ...input, limit: 100 },
            undefined,
            null,
          );
          const ids = zNoteList.parse(JSON.parse(whole)).items.map((item) => item.id);
          found += ids.length;
          for (const window of [1, 2, 4, 9, 25]) {
            const walked = (await pages(input, window)).flatMap((text) =>
              zNoteList.parse(JSON.parse(text)).items.map((item) => item.id),
            );
            expect(walked).toEqual(ids);
          }
        }
      }
    }
    // Each view has matches (and not every note matches).
    expect(found).toBeGreaterThan(6 * 2 * 10);
  });
});
