import type { EntityManager } from '@mikro-orm/postgresql';
import { Flow, NoteKind, SortOrder } from '../../../src/enums.ts';
import { parseSearchQuery } from '../../../src/rules/search-query.ts';
import type { NavView, NoteListInput, NoteSummary } from '../../../src/schemas/notes.ts';
import { queryParts, substringChecks, tsqueryLiteral } from '../../../src/search/tokens.ts';
import { clock } from '../../clock.ts';
import type { User } from '../../db/entities/index.ts';
import { pgTextArray } from '../../db/pg-array.ts';
import { cursorId, cursorInstant, cursorText, invalidCursor } from '../cursor.ts';
import { ownFolder } from '../folders/folders.service.ts';
import { rowToNoteSummary } from './note-view.ts';

const DAY_MS = 86_400_000;

/** The note columns a list needs (never the search vector). */
const NOTE_COLUMNS = [
  'id',
  'user_id',
  'url',
  'url_hash',
  'title',
  'site_name',
  'author',
  'published_at',
  'lead_image_url',
  'excerpt',
  'lang',
  'word_count',
  'flow',
  'trashed_at',
  'folder_id',
  'tags',
  'clip_status',
  'clip_error',
  'clip_attempts',
  'source',
  'highlight_count',
  'created_at',
  'updated_at',
  'clipped_at',
]
  .map((c) => `n."${c}"`)
  .join(', ');

/** Each sort: the column and direction, with id as the tiebreaker (keyset pagination). */
const SORTS: Record<SortOrder, { column: 'created_at' | 'updated_at' | 'highlight_count'; desc: boolean }> = {
  [SortOrder.newestFirst]: { column: 'created_at', desc: true },
  [SortOrder.oldestFirst]: { column: 'created_at', desc: false },
  [SortOrder.recentlyUpdated]: { column: 'updated_at', desc: true },
  [SortOrder.mostHighlights]: { column: 'highlight_count', desc: true },
  // Notes have no position of their own; "by position" orders highlights inside a note and the
  // note list falls back to reading order of saving.
  [SortOrder.positionInArticle]: { column: 'created_at', desc: false },
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

function encodeSortCursor(note: NoteSummary, column: string): string {
  const raw =
    column === 'highlight_count'
      ? note.highlightCount
      : (column === 'updated_at' ? note.updatedAt : note.createdAt).toISOString();
  return Buffer.from(JSON.stringify([raw, note.id])).toString('base64url');
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
  let parsed: unknown;
  try {
    parsed = JSON.parse(cursorText(cursor));
  } catch {
    throw invalidCursor();
  }
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
}

/**
 * The note list as one SQL statement: a left-nav view, optionally a tag, a folder and a
 * search, in one of the six sorts, keyset-paginated. Served by the partial indexes of the
 * library migration (and the GIN search indexes when searching). Exposed apart from running it
 * so the benchmark can time the raw SQL against the whole service.
 */
export function noteListSql(user: User, input: NoteListInput, now = clock.now()): NoteListSql {
  const params: unknown[] = [user.id];
  const where = ['n.user_id = ?', `n.kind = ${NoteKind.web}`];
  where.push(navCondition(input.nav, now, params));

  const search = parseSearchQuery(input.q ?? '');
  const tags = [...search.tags, ...(input.tag ? [input.tag] : [])];
  if (tags.length) {
    where.push('n.tags @> ?::text[]');
    params.push(pgTextArray(tags));
  }
  if (input.folderId) {
    where.push('n.folder_id = ?');
    params.push(input.folderId);
  }
  const parts = queryParts(search.text);
  const tsquery = tsqueryLiteral(parts);
  if (tsquery) {
    const matches = '(n.search_vector @@ ?::tsquery or n.highlights_vector @@ ?::tsquery)';
    params.push(tsquery, tsquery);
    const checks = substringChecks(parts);
    if (!checks.length) where.push(matches);
    else {
      // CJK runs of 3+ characters: the bigrams matched, now confirm the run itself. CASE makes
      // PostgreSQL test the cheap index match first and read note text only for candidates;
      // CJK has no case, so the text is searched as stored.
      // Scalar subqueries (not EXISTS) so the planner looks up each candidate's own rows by key
      // instead of hashing a scan of every note's text.
      const confirm = checks.map(
        () => `(strpos(n.title, ?) > 0
        or coalesce((select strpos(c.text, ?) > 0 from note_content c where c.note_id = n.id), false)
        or coalesce((select bool_or(strpos(h.text || ' ' || coalesce(h.annotation, ''), ?) > 0) from highlight h where h.note_id = n.id), false))`,
      );
      where.push(`case when ${matches} then ${confirm.join(' and ')} else false end`);
      for (const run of checks) params.push(run, run, run);
    }
  }

  const sort = SORTS[input.sort];
  const after = decodeSortCursor(input.cursor, sort.column);
  if (after) {
    const op = sort.desc ? '<' : '>';
    where.push(`(n.${sort.column}, n.id) ${op} (?, ?)`);
    params.push(after.value, after.id);
  }
  const direction = sort.desc ? 'desc' : 'asc';
  params.push(input.limit + 1);
  return {
    sql: `select ${NOTE_COLUMNS} from note n where ${where.join(' and ')}
     order by n.${sort.column} ${direction}, n.id ${direction} limit ?`,
    params,
    sortColumn: sort.column,
  };
}

/**
 * Runs the list query and maps rows straight to summaries (no entity hydration on a hot path).
 * A folder that is not the user's is not found, as everywhere else.
 */
export async function listNotes(em: EntityManager, user: User, input: NoteListInput, now = clock.now()) {
  if (input.folderId) await ownFolder(em, user, input.folderId);
  const { sql, params, sortColumn } = noteListSql(user, input, now);
  const rows = await em.execute<Record<string, unknown>[]>(sql, params);
  const items = rows.slice(0, input.limit).map(rowToNoteSummary);
  const last = items.at(-1);
  const nextCursor = rows.length > input.limit && last ? encodeSortCursor(last, sortColumn) : null;
  return { items, nextCursor };
}

/** Every left-nav count in one pass over the user's notes. */
export async function navCounts(em: EntityManager, user: User, now = clock.now()) {
  const since = new Date(now.getTime() - DAY_MS);
  const [row] = await em.execute<Record<string, string>[]>(
    `select
       count(*) filter (where trashed_at is null) as "all",
       count(*) filter (where trashed_at is null and flow = ${Flow.later}) as later,
       count(*) filter (where trashed_at is null and flow = ${Flow.shortlist}) as star,
       count(*) filter (where trashed_at is null and flow = ${Flow.archive}) as archive,
       count(*) filter (where trashed_at is null and flow <> ${Flow.archive}) as unarchive,
       count(*) filter (where trashed_at is not null) as trash,
       count(*) filter (where trashed_at is null and (created_at > ? or exists (
         select 1 from highlight h where h.note_id = n.id and h.created_at > ?))) as "24h",
       count(*) filter (where trashed_at is null and tags = '{}') as notag
     from note n where user_id = ? and kind = ${NoteKind.web}`,
    [since, since, user.id],
  );
  const n = (k: string) => Number(row?.[k] ?? 0);
  return {
    all: n('all'),
    later: n('later'),
    star: n('star'),
    archive: n('archive'),
    unarchive: n('unarchive'),
    trash: n('trash'),
    '24h': n('24h'),
    notag: n('notag'),
  };
}
