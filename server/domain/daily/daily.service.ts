import type { EntityManager } from '@mikro-orm/postgresql';
import { DAY_MS } from '../../../src/constants.ts';
import { NoteKind } from '../../../src/enums.ts';
import { AppError } from '../../../src/errors.ts';
import { dayKey } from '../../../src/rules/daily-counter.ts';
import { newId } from '../../../src/rules/id.ts';
import { mergeText } from '../../../src/rules/merge-text.ts';
import type { DailyMoved, DailyNote } from '../../../src/schemas/daily.ts';
import { clock } from '../../clock.ts';
import { Highlight, type Note, type User } from '../../db/entities/index.ts';
import { asDate } from '../../db/row.ts';
import { type ChangeDeps, change } from '../changes.ts';
import { UNCLIPPED_NOTE_CLIP_STATE } from '../notes/clip-state.ts';
import { type ExportFormat, exportFile } from '../notes/notes.service.ts';
import { type SearchTarget, userSearchCondition } from '../search/search-condition.ts';
import { indexNote } from '../search/search-index.ts';
import { dailyAppended } from '../webhooks/event-data.ts';
import { recordWebhookEvent } from '../webhooks/events.ts';

export function today(user: User, now = clock.now()): string {
  return dayKey(now, user.timeZone);
}

interface DailyRow {
  id: string;
  daily_date: string;
  daily_main?: boolean;
  text: string | null;
  version: number;
  updated_at: Date;
}

function toDaily(row: DailyRow): DailyNote {
  return {
    id: row.id,
    date: row.daily_date,
    text: row.text ?? '',
    version: row.version,
    updatedAt: asDate(row.updated_at),
  };
}

/** A day nobody has written in yet; its note gets an id when it is first saved. */
function emptyDay(date: string): DailyNote {
  return { id: '', date, text: '', version: 0, updatedAt: null };
}

const DAILY_SELECT = `select n."id", n."daily_date", n."daily_main", n."version", n."updated_at", c."text"
  from "note" n left join "note_content" c on c."note_id" = n."id"`;

/** A day's note (today, in the user's time zone, when no day is given) and its extra entries. */
export async function getDay(em: EntityManager, user: User, date = today(user)) {
  const rows = await em.execute<DailyRow[]>(
    `${DAILY_SELECT} where n."user_id" = ? and n."kind" = ? and n."daily_date" = ? order by n."created_at", n."id"`,
    [user.id, NoteKind.daily, date],
  );
  const main = rows.find((r) => r.daily_main);
  return {
    ...(main ? toDaily(main) : emptyDay(date)),
    entries: rows.filter((r) => r !== main).map(toDaily),
  };
}

/** A new daily note and its (empty or given) text; `main` marks the day's own note. */
async function insertDailyNote(
  em: EntityManager,
  user: User,
  note: { date: string; main: boolean; text: string; version: number; now: Date },
): Promise<string | null> {
  const [row] = await em.execute<{ id: string }[]>(
    `insert into "note" ("id", "user_id", "kind", "title", "clip_status", "clip_attempts", "source", "daily_date",
       "daily_main", "version", "created_at", "updated_at")
     values (?, ?, ?, '', ?, ?, 'daily', ?, ?, ?, ?, ?)
     on conflict ("user_id", "daily_date") where "daily_main" do nothing returning "id"`,
    [
      newId(),
      user.id,
      NoteKind.daily,
      UNCLIPPED_NOTE_CLIP_STATE.clipStatus,
      UNCLIPPED_NOTE_CLIP_STATE.clipAttempts,
      note.date,
      note.main,
      note.version,
      note.now,
      note.now,
    ],
  );
  if (!row) return null;
  await em.execute('insert into "note_content" ("note_id", "text", "updated_at") values (?, ?, ?)', [
    row.id,
    note.text,
    note.now,
  ]);
  return row.id;
}

/**
 * The day's own note, created if needed (`created`) and locked so concurrent writes of the day
 * queue up.
 */
async function lockDay(
  em: EntityManager,
  user: User,
  date: string,
  now: Date,
): Promise<DailyRow & { created: boolean }> {
  const created = await insertDailyNote(em, user, { date, main: true, text: '', version: 0, now });
  await em.execute(
    'select 1 from "note" where "user_id" = ? and "daily_date" = ? and "daily_main" for update',
    [user.id, date],
  );
  // Read after the lock: a statement that waited for it would still see the older text.
  const [row] = await em.execute<DailyRow[]>(
    `${DAILY_SELECT} where n."user_id" = ? and n."daily_date" = ? and n."daily_main"`,
    [user.id, date],
  );
  if (!row) throw new AppError('NOT_FOUND');
  return { ...row, created: created !== null };
}

/** Writes a daily note's new text: one version up, re-indexed for search. */
async function writeDay(
  em: EntityManager,
  user: User,
  row: DailyRow,
  text: string,
  now: Date,
): Promise<DailyNote> {
  await em.execute('update "note_content" set "text" = ?, "updated_at" = ? where "note_id" = ?', [
    text,
    now,
    row.id,
  ]);
  await em.execute(
    'update "note" set "version" = "version" + 1, "updated_at" = ? where "user_id" = ? and "id" = ?',
    [now, user.id, row.id],
  );
  await indexNote(em, row.id, { title: '', text });
  return toDaily({ ...row, text, version: row.version + 1, updated_at: now });
}

/**
 * Autosave of the editor. Saved against the version it read: when another tab or device wrote
 * in between, the server merges the two edits line by line from the text both started from
 * (src/rules/merge-text.ts) instead of overwriting, and answers with the merged text.
 */
export async function saveDay(
  deps: ChangeDeps,
  user: User,
  input: { date: string; text: string; baseText: string; baseVersion: number },
) {
  const now = clock.now();
  return change(deps, user, async ({ tx: tem }) => {
    const row = await lockDay(tem, user, input.date, now);
    const merged = row.version !== input.baseVersion;
    const text = merged ? mergeText(input.baseText, row.text ?? '', input.text) : input.text;
    return { ...(await writeDay(tem, user, row, text, now)), merged };
  });
}

/** Quick entry (/postdaily): appended to today's note with its time, atomically. */
export async function appendToToday(deps: ChangeDeps, user: User, text: string, now = clock.now()) {
  const date = today(user, now);
  const time = new Intl.DateTimeFormat('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    timeZone: user.timeZone,
  }).format(now);
  return change(
    deps,
    user,
    async ({ tx }) => (await appendToDay(tx, user, date, `**${time}** ${text}`)).note,
  );
}

/** Inside a transaction: `block` appended to the day's own note (made if the day had none: `created`). */
async function appendToDay(
  em: EntityManager,
  user: User,
  date: string,
  block: string,
  highlightIds: string[] = [],
): Promise<{ note: DailyNote; created: boolean }> {
  const now = clock.now();
  const row = await lockDay(em, user, date, now);
  const text = row.text ? `${row.text}${BLOCK_GAP}${block}` : block;
  await recordWebhookEvent(em, user, 'daily.appended', dailyAppended(date, row.id, block, highlightIds));
  return { note: await writeDay(em, user, row, text, now), created: row.created };
}

/** What separates an appended block from the text before it. */
const BLOCK_GAP = '\n\n';

/** Inside a transaction: a new daily note of `date` (an extra entry beside the day's own) holding `block`. */
async function newDayEntry(
  em: EntityManager,
  user: User,
  date: string,
  block: string,
  highlightIds: string[],
): Promise<DailyNote> {
  const now = clock.now();
  const id = await insertDailyNote(em, user, { date, main: false, text: block, version: 1, now });
  if (!id) throw new AppError('NOT_FOUND');
  await recordWebhookEvent(em, user, 'daily.appended', dailyAppended(date, id, block, highlightIds));
  await indexNote(em, id, { title: '', text: block });
  return toDaily({ id, daily_date: date, text: block, version: 1, updated_at: now });
}

/** A quoted highlight with a link back to its note and to the highlight itself. */
function highlightBlock(highlight: Highlight): string {
  const note = highlight.note as Note | null;
  const quote = (highlight.imageUrl ? `![](${highlight.imageUrl})` : highlight.text)
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');
  const source = note
    ? `\n\n— [${note.title}](/?pi=${note.id}&vs=article) · [↗](/?nx=${highlight.id}&vs=article)`
    : '';
  const annotation = highlight.annotation ? `\n\n${highlight.annotation}` : '';
  return `${quote}${annotation}${source}`;
}

/** How long a move can be undone (its record is kept that long). */
export const DAILY_MOVE_UNDO_MS = DAY_MS;

/**
 * Moves highlights into today's daily note (appended) or into a new daily entry of today; the
 * daily note links back to each source note and highlight. The highlights themselves stay where
 * they are: a move writes quotes into the daily note. What it wrote is recorded under `moveId`
 * so that undoMoveToDaily can take it out again.
 */
export async function moveHighlightsToDaily(
  deps: ChangeDeps,
  user: User,
  ids: string[],
  target: 'today' | 'new',
  now = clock.now(),
): Promise<DailyMoved> {
  const highlights = await deps.em.find(
    Highlight,
    { id: { $in: ids }, user: user.id },
    { populate: ['note'], orderBy: { createdAt: 'asc' } },
  );
  if (highlights.length !== new Set(ids).size) throw new AppError('NOT_FOUND');
  const block = highlights.map(highlightBlock).join('\n\n');
  const date = today(user, now);
  const highlightIds = highlights.map((highlight) => highlight.id);
  return change(deps, user, async ({ tx: tem }) => {
    const { note, created } =
      target === 'today'
        ? await appendToDay(tem, user, date, block, highlightIds)
        : { note: await newDayEntry(tem, user, date, block, highlightIds), created: true };
    const moveId = newId();
    const written = clock.now();
    await tem.execute('delete from "daily_move" where "user_id" = ? and "created_at" < ?', [
      user.id,
      new Date(written.getTime() - DAILY_MOVE_UNDO_MS),
    ]);
    await tem.execute(
      `insert into "daily_move" ("user_id", "id", "note_id", "daily_date", "created_note", "block", "created_at")
       values (?, ?, ?, ?, ?, ?, ?)`,
      [user.id, moveId, note.id, date, created, block, written],
    );
    return { ...note, moveId };
  });
}

interface MoveRow {
  note_id: string;
  daily_date: string;
  created_note: boolean;
  block: string;
  undone_at: Date | null;
}

/**
 * `text` without the last copy of `block` and the gap an append put before it (or, for a block
 * that opened the note, the gap after it); null when the block is no longer there.
 */
export function withoutBlock(text: string, block: string): string | null {
  const at = text.lastIndexOf(block);
  if (at < 0) return null;
  const end = at + block.length;
  if (at >= BLOCK_GAP.length && text.startsWith(BLOCK_GAP, at - BLOCK_GAP.length))
    return text.slice(0, at - BLOCK_GAP.length) + text.slice(end);
  if (at === 0 && text.startsWith(BLOCK_GAP, end)) return text.slice(end + BLOCK_GAP.length);
  return text.slice(0, at) + text.slice(end);
}

/**
 * Takes a move's quotes out of the daily note again, in one transaction: the note is as it was
 * before the move (a note the move made is deleted; one it appended to gets its earlier text
 * back, as a new version so open editors merge rather than overwrite). Edits made to the note
 * since are kept; if they changed the quotes themselves, nothing is taken out (CONFLICT).
 * Undoing twice changes nothing the second time.
 */
export async function undoMoveToDaily(deps: ChangeDeps, user: User, moveId: string) {
  return change(deps, user, async ({ tx: tem }) => {
    const [move] = await tem.execute<MoveRow[]>(
      `select "note_id", "daily_date", "created_note", "block", "undone_at" from "daily_move"
       where "user_id" = ? and "id" = ? for update`,
      [user.id, moveId],
    );
    if (!move) throw new AppError('NOT_FOUND');
    if (move.undone_at) return { date: move.daily_date };
    const now = clock.now();
    await tem.execute('select 1 from "note" where "user_id" = ? and "id" = ? for update', [
      user.id,
      move.note_id,
    ]);
    const [row] = await tem.execute<DailyRow[]>(`${DAILY_SELECT} where n."user_id" = ? and n."id" = ?`, [
      user.id,
      move.note_id,
    ]);
    if (!row) throw new AppError('NOT_FOUND');
    const text = withoutBlock(row.text ?? '', move.block);
    if (text === null) throw new AppError('CONFLICT', 'errors.dailyMoveChanged');
    if (move.created_note && text === '') {
      await tem.execute('delete from "note" where "user_id" = ? and "id" = ?', [user.id, row.id]);
    } else {
      await writeDay(tem, user, row, text, now);
    }
    await tem.execute('update "daily_move" set "undone_at" = ? where "user_id" = ? and "id" = ?', [
      now,
      user.id,
      moveId,
    ]);
    return { date: move.daily_date };
  });
}

/** The timeline: days with notes, newest first, optionally searched. */
export async function listDays(
  em: EntityManager,
  user: User,
  input: { limit: number; cursor?: string | null; q?: string },
) {
  const params: unknown[] = [user.id, NoteKind.daily];
  const where = ['n.user_id = ?', 'n.kind = ?', `c.text <> ''`];
  if (input.cursor) {
    where.push('n.daily_date < ?');
    params.push(input.cursor);
  }
  const q = input.q ?? '';
  const search: SearchTarget = {
    table: 'note',
    alias: 'n',
    vectors: ['search_vector'],
    userId: user.id,
    contains: (run) => ({ sql: 'strpos(lower(c.text), ?) > 0', params: [run] }),
  };
  const matches = await userSearchCondition(em, q, search);
  if (matches) {
    where.push(matches.sql);
    params.push(...matches.params);
  }
  params.push(input.limit + 1);
  const rows = await em.execute<{ id: string; daily_date: string; text: string; updated_at: Date }[]>(
    `select distinct on (n.daily_date) n.id, n.daily_date, c.text, n.updated_at
     from note n join note_content c on c.note_id = n.id
     where ${where.join(' and ')} order by n.daily_date desc, n.updated_at desc limit ?`,
    params,
  );
  const items = rows.slice(0, input.limit).map((r) => ({
    id: r.id,
    date: r.daily_date,
    excerpt: r.text.replace(/\s+/g, ' ').trim().slice(0, 200),
    updatedAt: asDate(r.updated_at),
  }));
  return { items, nextCursor: rows.length > input.limit ? (items.at(-1)?.date ?? null) : null };
}

/** One day's note with its extra entries, as a Markdown or plain-text file. */
export async function exportDay(
  em: EntityManager,
  user: User,
  input: { date: string; format: ExportFormat },
) {
  const day = await getDay(em, user, input.date);
  const body = [day.text, ...day.entries.map((e) => e.text)].filter(Boolean).join('\n\n---\n\n');
  const heading = input.format === 'markdown' ? `# ${input.date}` : input.date;
  return exportFile(input.format, `daily-${input.date}`, `${heading}\n\n${body}\n`);
}
