import type { EntityManager } from '@mikro-orm/postgresql';
import { Flow, NoteKind, SortOrder } from '../../../src/enums.ts';
import { parseSearchQuery } from '../../../src/rules/search-query.ts';
import type { NavView, NoteList, NoteListInput } from '../../../src/schemas/notes.ts';
import { queryParts } from '../../../src/search/tokens.ts';
import { clock } from '../../clock.ts';
import type { User } from '../../db/entities/index.ts';
import { preparedRows } from '../../db/prepared.ts';
import { epochMsSql } from '../../db/row.ts';
import { cursorId, cursorInstant, cursorJson, invalidCursor } from '../cursor.ts';
import { ownFolder } from '../folders/folders.service.ts';
import { exactPhrases, type SearchTarget, searchStages } from '../search/search-condition.ts';
import { carriesTagSql } from './note-tags.ts';
import { noteSummaryJsonSql } from './note-view.ts';

const DAY_MS = 86_400_000;

/** Each sort: the column and direction, with id as the tiebreaker (keyset pagination). */
const SORTS: Record<SortOrder, { column: 'created_at' | 'updated_at' | 'highlight_count'; desc: boolean }> = {
  [SortOrder.newestFirst]: { column: 'created_at', desc: true },
  [SortOrder.oldestFirst]: { column: 'created_at', desc: false },
  [SortOrder.recentlyUpdated]: { column: 'updated_at', desc: true },
  [SortOrder.mostHighlights]: { column: 'highlight_count', desc: true },
  // Notes have no place in an article (that sort orders highlights): an old link or stored
  // preference asking for it gets the default order (NoteSort).
  [SortOrder.positionInArticle]: { column: 'created_at', desc: true },
  [SortOrder.oldest]: { column: 'updated_at', desc: false },
};

/** The SQL condition of each left-navigation entry. */
function navCondition(nav: NavView, now: Date, params: unknown[]): string {
  switch (nav) {
    case 'all':
      return 'n.trashed_at is null';
    case 'later':
      return `n.trashed_at is null and n.flow = ${Flow.later}`;
    case 'star':
      return `n.trashed_at is null and n.flow = ${Flow.shortlist}`;
    case 'archive':
      return `n.trashed_at is null and n.flow = ${Flow.archive}`;
    case 'unarchive':
      return `n.trashed_at is null and n.flow <> ${Flow.archive}`;
    case 'trash':
      return 'n.trashed_at is not null';
    case 'notag':
      return "n.trashed_at is null and n.tags = '{}'";
    case '24h': {
      // The few notes saved or highlighted in the last day, gathered first (both by index),
      // rather than testing every note against the recent highlights.
      const since = new Date(now.getTime() - DAY_MS);
      params.push(params[0], since, params[0], since);
      return `n.trashed_at is null and n.id in (
        select id from note where user_id = ? and created_at > ?
        union all
        select note_id from highlight where user_id = ? and created_at > ? and note_id is not null)`;
    }
  }
}

interface SortCursor {
  value: Date | number;
  id: string;
}

/** highlight_count is a PostgreSQL integer. */
const INT_MAX = 2_147_483_647;

/** The cursor after a row: its sort value (`sort_key`: epoch ms, or the count) and its id. */
function encodeSortCursor(row: Record<string, unknown>, column: string): string {
  const key = Number(row.sort_key);
  const raw = column === 'highlight_count' ? key : new Date(key).toISOString();
  return Buffer.from(JSON.stringify([raw, row.id])).toString('base64url');
}

/**
 * The cursor `encodeSortCursor` wrote for this sort column, or a 400: a JSON pair of the
 * column's value (an ISO instant, or a count for highlight_count) and a note id.
 */
function decodeSortCursor(
  cursor: string | null | undefined,
  column: NoteListSql['sortColumn'],
): SortCursor | null {
  if (!cursor) return null;
  const parsed = cursorJson(cursor);
  if (!Array.isArray(parsed) || parsed.length !== 2) throw invalidCursor();
  const [value, id] = parsed as [unknown, unknown];
  if (column === 'highlight_count') {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > INT_MAX)
      throw invalidCursor();
    return { value, id: cursorId(id) };
  }
  return { value: cursorInstant(value), id: cursorId(id) };
}

export interface NoteListSql {
  sql: string;
  params: unknown[];
  sortColumn: 'created_at' | 'updated_at' | 'highlight_count';
  /** Whether the search has CJK phrases to check on the candidates (what a window is for). */
  phrases: boolean;
}

/**
 * What the note list searches: a note's own text and its highlights. A run that needs confirming
 * in the text is looked for in the title, the article and the highlights; CJK has no case, so the
 * text is searched as stored. Scalar subqueries (not EXISTS) so the planner looks up each
 * candidate's own rows by key instead of hashing a scan of every note's text.
 */
export function noteSearchTarget(user: User): SearchTarget {
  return {
    table: 'note',
    alias: 'n',
    vectors: ['search_vector', 'highlights_vector'],
    userId: user.id,
    contains: (run) => ({
      sql: `(strpos(n.title, ?) > 0
        or coalesce((select strpos(c.text, ?) > 0 from note_content c where c.note_id = n.id), false)
        or coalesce((select bool_or(strpos(h.text || ' ' || coalesce(h.annotation, ''), ?) > 0) from highlight h where h.note_id = n.id), false))`,
      params: [run, run, run],
    }),
  };
}

const sortType = (column: NoteListSql['sortColumn']) =>
  column === 'highlight_count' ? 'int' : 'timestamptz';

/**
 * The end of a search's window (see SEARCH_WINDOW): the sort value `size` rows into the sort's
 * order after the cursor, among all the user's notes for created_at and their live notes for the
 * other sorts, which their indexes hold (the walk reads no table row); none when fewer rows
 * follow, or for trash in those other sorts, which no index orders. The window holds every row of
 * that value, so it is always the first rows of the view's order, whatever the view.
 */
async function windowEnd(em: EntityManager, user: User, input: NoteListInput, size: number) {
  const sort = SORTS[input.sort];
  const where = ['n.user_id = ?'];
  const params: unknown[] = [user.id];
  if (sort.column !== 'created_at') {
    if (input.nav === 'trash') return undefined;
    where.push('n.trashed_at is null');
  }
  const after = decodeSortCursor(input.cursor, sort.column);
  if (after) {
    where.push(`n.${sort.column} ${sort.desc ? '<=' : '>='} ?`);
    params.push(after.value);
  }
  params.push(size - 1);
  const [end] = await preparedRows<{ value: string }>(
    em,
    // PostgreSQL's own text of the value (to_json's ISO instant keeps the microseconds a Date
    // drops), written for the one row kept, not for each row skipped.
    `select to_json(w.value) #>> '{}' as value from (select n.${sort.column} as value from note n
      where ${where.join(' and ')} order by n.${sort.column} ${sort.desc ? 'desc' : 'asc'} offset ? limit 1) w`,
    params,
  );
  return end?.value;
}

/**
 * The note list as one SQL statement: a left-nav view, optionally a tag, a folder and a
 * search, in one of the six sorts, keyset-paginated. Served by the partial indexes of the
 * library migration (and the GIN search indexes when searching). Exposed apart from running it
 * so the benchmark can time the raw SQL against the whole service. `exactPhrases`: as
 * search-condition.ts's exactPhrases answers for the search and noteSearchTarget. `window`: only
 * the view's rows up to this sort value (windowEnd's) are searched.
 */
export function noteListSql(
  user: User,
  input: NoteListInput,
  { now = clock.now(), exactPhrases, window }: { now?: Date; exactPhrases: boolean; window?: string },
): NoteListSql {
  const params: unknown[] = [user.id];
  // In a window, the user is compared as an int4 (when the id is one), which the GIN indexes'
  // bigint user_id cannot use and the btree of (user_id, created_at) can: PostgreSQL ANDs two
  // bitmaps only when they share no condition, and the AND is what keeps the search from
  // visiting every candidate's row.
  const windowed = window !== undefined && user.id <= INT_MAX;
  const where = [windowed ? 'n.user_id = ?::int' : 'n.user_id = ?', `n.kind = ${NoteKind.web}`];
  where.push(navCondition(input.nav, now, params));

  const search = parseSearchQuery(input.q ?? '');
  const tags = new Set([...search.tags, ...(input.tag ? [input.tag] : [])]);
  for (const tag of tags) where.push(carriesTagSql(tag, params));
  if (input.folderId) {
    where.push('n.folder_id = ?');
    params.push(input.folderId);
  }
  const matches = searchStages(search.text, noteSearchTarget(user), exactPhrases);
  if (matches) {
    where.push(matches.candidates.sql);
    params.push(...matches.candidates.params);
  }

  const sort = SORTS[input.sort];
  if (window !== undefined) {
    where.push(`n.${sort.column} ${sort.desc ? '>=' : '<='} ?::${sortType(sort.column)}`);
    params.push(window);
  }
  const after = decodeSortCursor(input.cursor, sort.column);
  if (after) {
    const op = sort.desc ? '<' : '>';
    where.push(`(n.${sort.column}, n.id) ${op} (?, ?)`);
    params.push(after.value, after.id);
  }
  const direction = sort.desc ? 'desc' : 'asc';
  const sortKey = sort.column === 'highlight_count' ? 'n.highlight_count' : epochMsSql(`n.${sort.column}`);
  const order = `order by n.${sort.column} ${direction}, n.id ${direction}`;
  // CJK phrases read a note's vectors (large, stored apart from the row), so they are checked
  // on the candidates in order until the page is full, not on every candidate: OFFSET 0 keeps
  // PostgreSQL from moving the check into the inner query.
  const phrases = matches?.phrases;
  if (phrases) params.push(...phrases.params);
  const from = phrases
    ? `(select n.* from note n where ${where.join(' and ')} ${order} offset 0) n where ${phrases.sql}`
    : `note n where ${where.join(' and ')}`;
  // The page (one row more than asked, to know there is a next one, under a plain LIMIT the
  // planner sees) as one row: its summaries' JSON joined in order, how many were found, and the
  // last shown row's sort key and id (the cursor). The page size is the last parameter.
  params.push(input.limit + 1, input.limit);
  const page = `select ${noteSummaryJsonSql()} as summary, n.id, n.${sort.column} as sort_value,
      ${sortKey} as sort_key
    from ${from} ${order} limit ?`;
  return {
    sql: `select coalesce(string_agg(p.summary, ',' order by p.place) filter (where p.place <= s.size), '') as items,
        count(*)::int as found,
        max(p.sort_key) filter (where p.place = s.size) as sort_key,
        max(p.id) filter (where p.place = s.size) as id
      from (select q.*, row_number() over (order by q.sort_value ${direction}, q.id ${direction}) as place
        from (${page}) q) p, (select ?::int as size) s`,
    params,
    sortColumn: sort.column,
    phrases: Boolean(phrases),
  };
}

interface NoteListRow {
  items: string;
  found: number;
  sort_key: number | null;
  id: string | null;
}

/**
 * How many rows of the view a search with CJK phrases looks among first. Such a search gathers
 * every candidate (the notes holding the runs' bigrams in any order: thousands in a large library),
 * sorts them all and checks the phrases in order until the page is full, though the page is mostly
 * among the first few thousand rows. Searched first, the window's first rows in the sort's order
 * bound the candidates by the sort column's index; when they hold less than a page and its next
 * row, the whole view is searched. The page is the same either way: the window is the first rows
 * of the same order, so the matches among them are the first matches.
 */
const SEARCH_WINDOW = 20_000;

/**
 * The list's page as the JSON text of a NoteList, written by PostgreSQL (no row is read into
 * JS, mapped or serialised here): what the tRPC front sends as it is. A folder that is not the
 * user's is not found, as everywhere else. `window`: SEARCH_WINDOW's size (tests pass a small
 * one; null searches the whole view at once).
 */
export async function listNotesJson(
  em: EntityManager,
  user: User,
  input: NoteListInput,
  now = clock.now(),
  window: number | null = SEARCH_WINDOW,
): Promise<string> {
  if (input.folderId) await ownFolder(em, user, input.folderId);
  const exact = await exactPhrases(em, parseSearchQuery(input.q ?? '').text, noteSearchTarget(user));
  const pageOf = async ({ sql, params }: NoteListSql) =>
    (await preparedRows<NoteListRow>(em, sql, params))[0];
  const whole = noteListSql(user, input, { now, exactPhrases: exact });
  let page: NoteListRow | undefined;
  // Not with a Latin word: its prefix is looked up among every note holding a word it starts (for
  // a common word, a bitmap past work_mem, so lossy and rechecked on the rows), which no window
  // shortens, and a window that misses then doubles the time (measured at 1,000,000 notes).
  const words = queryParts(parseSearchQuery(input.q ?? '').text).words.length;
  if (whole.phrases && !words && window) {
    const end = await windowEnd(em, user, input, window);
    if (end !== undefined)
      page = await pageOf(noteListSql(user, input, { now, exactPhrases: exact, window: end }));
    if (page && page.found <= input.limit) page = undefined;
  }
  page ??= await pageOf(whole);
  const nextCursor =
    page && page.found > input.limit
      ? encodeSortCursor({ sort_key: page.sort_key, id: page.id }, whole.sortColumn)
      : null;
  return `{"items":[${page?.items ?? ''}],"nextCursor":${JSON.stringify(nextCursor)}}`;
}

/**
 * The list's page as objects: the procedure's answer to batches and in-process callers (index.html's
 * first page among them), and the Open API's, which shapes it further.
 */
export async function listNotes(
  em: EntityManager,
  user: User,
  input: NoteListInput,
  now = clock.now(),
): Promise<NoteList> {
  return JSON.parse(await listNotesJson(em, user, input, now)) as NoteList;
}
