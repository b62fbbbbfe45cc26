import type { EntityManager } from '@mikro-orm/postgresql';
import { CoreType, NoteKind } from '../../../src/enums.ts';
import { AppError } from '../../../src/errors.ts';
import { dayKey } from '../../../src/rules/daily-counter.ts';
import { newId } from '../../../src/rules/id.ts';
import { mergeText } from '../../../src/rules/merge-text.ts';
import type { DailyNote } from '../../../src/schemas/daily.ts';
import { queryParts, substringChecks, tsqueryLiteral } from '../../../src/search/tokens.ts';
import { clock } from '../../clock.ts';
import { Highlight, type Note, type User } from '../../db/entities/index.ts';
import { indexHighlight } from '../search/search-index.ts';

export function today(user: User, now = clock.now()): string {
  return dayKey(now, user.timeZone);
}

function toDaily(note: Highlight): DailyNote {
  return {
    id: note.id,
    date: note.dailyDate ?? '',
    text: note.text,
    version: note.version,
    updatedAt: note.updatedAt,
  };
}

/** A day nobody has written in yet; its note gets an id when it is first saved. */
function emptyDay(date: string): DailyNote {
  return { id: '', date, text: '', version: 0, updatedAt: null };
}

export async function getDay(em: EntityManager, user: User, date: string) {
  const notes = await em.find(
    Highlight,
    { user: user.id, kind: NoteKind.daily, dailyDate: date },
    { orderBy: { createdAt: 'asc' } },
  );
  const main = notes.find((n) => n.dailyMain);
  return {
    ...(main ? toDaily(main) : emptyDay(date)),
    entries: notes.filter((n) => n !== main).map(toDaily),
  };
}

/**
 * Autosave of the editor. Saved against the version it read: when another tab or device wrote
 * in between, the server merges the two edits line by line from the text both started from
 * (src/rules/merge-text.ts) instead of overwriting, and answers with the merged text.
 */
export async function saveDay(
  em: EntityManager,
  user: User,
  input: { date: string; text: string; baseText: string; baseVersion: number },
) {
  const now = clock.now();
  return em.transactional(async (tem) => {
    // Create the day's note if needed, then lock it so concurrent saves queue up.
    await tem.execute(
      `insert into "highlight" ("id", "user_id", "kind", "core_type", "text", "daily_date", "daily_main", "version", "created_at", "updated_at")
       values (?, ?, ?, ?, '', ?, true, 0, ?, ?) on conflict ("user_id", "daily_date") where "daily_main" do nothing`,
      [newId(), user.id, NoteKind.daily, CoreType.textNote, input.date, now, now],
    );
    const [row] = await tem.execute<{ id: string; text: string; version: number }[]>(
      'select "id", "text", "version" from "highlight" where "user_id" = ? and "daily_date" = ? and "daily_main" for update',
      [user.id, input.date],
    );
    if (!row) throw new AppError('NOT_FOUND');
    const merged = row.version !== input.baseVersion;
    const text = merged ? mergeText(input.baseText, row.text, input.text) : input.text;
    await tem.execute(
      'update "highlight" set "text" = ?, "version" = "version" + 1, "updated_at" = ? where "user_id" = ? and "id" = ?',
      [text, now, user.id, row.id],
    );
    await indexHighlight(tem, { userId: user.id, id: row.id }, { text });
    const note = await tem.findOneOrFail(Highlight, { user: user.id, id: row.id }, { refresh: true });
    return { ...toDaily(note), merged };
  });
}

/** Quick entry (/postdaily): appended to today's note with its time, atomically. */
export async function appendToToday(em: EntityManager, user: User, text: string, now = clock.now()) {
  const date = today(user, now);
  const time = new Intl.DateTimeFormat('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    timeZone: user.timeZone,
  }).format(now);
  return appendToDay(em, user, date, `**${time}** ${text}`);
}

async function appendToDay(em: EntityManager, user: User, date: string, block: string) {
  const now = clock.now();
  return em.transactional(async (tem) => {
    const [row] = await tem.execute<{ id: string }[]>(
      `insert into "highlight" ("id", "user_id", "kind", "core_type", "text", "daily_date", "daily_main", "version", "created_at", "updated_at")
       values (?, ?, ?, ?, ?, ?, true, 1, ?, ?)
       on conflict ("user_id", "daily_date") where "daily_main" do update set
         "text" = case when "highlight"."text" = '' then excluded."text" else "highlight"."text" || E'\\n\\n' || excluded."text" end,
         "version" = "highlight"."version" + 1, "updated_at" = excluded."updated_at"
       returning "id"`,
      [newId(), user.id, NoteKind.daily, CoreType.textNote, block, date, now, now],
    );
    if (!row) throw new AppError('NOT_FOUND');
    const note = await tem.findOneOrFail(Highlight, { user: user.id, id: row.id }, { refresh: true });
    await indexHighlight(tem, { userId: user.id, id: row.id }, note);
    return toDaily(note);
  });
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

/**
 * Moves highlights into today's daily note (appended) or into a new daily entry of today;
 * the daily note links back to each source note and highlight.
 */
export async function moveHighlightsToDaily(
  em: EntityManager,
  user: User,
  ids: string[],
  target: 'today' | 'new',
  now = clock.now(),
) {
  const highlights = await em.find(
    Highlight,
    { id: { $in: ids }, user: user.id, kind: { $ne: NoteKind.daily } },
    { populate: ['note'], orderBy: { createdAt: 'asc' } },
  );
  if (highlights.length !== new Set(ids).size) throw new AppError('NOT_FOUND');
  const block = highlights.map(highlightBlock).join('\n\n');
  const date = today(user, now);
  if (target === 'today') return appendToDay(em, user, date, block);
  return em.transactional(async (tem) => {
    const entry = tem.create(Highlight, {
      id: newId(),
      user: user.id,
      kind: NoteKind.daily,
      coreType: CoreType.textNote,
      dailyDate: date,
      text: block,
    });
    await tem.flush();
    await indexHighlight(tem, { userId: user.id, id: entry.id }, entry);
    return toDaily(entry);
  });
}

/** The timeline: days with notes, newest first, optionally searched. */
export async function listDays(
  em: EntityManager,
  user: User,
  input: { limit: number; cursor?: string | null; q?: string },
) {
  const params: unknown[] = [user.id, NoteKind.daily];
  const where = ['n.user_id = ?', 'n.kind = ?', `n.text <> ''`];
  if (input.cursor) {
    where.push('n.daily_date < ?');
    params.push(input.cursor);
  }
  const parts = queryParts(input.q ?? '');
  const tsquery = tsqueryLiteral(parts);
  if (tsquery) {
    where.push('n.search_vector @@ ?::tsquery');
    params.push(tsquery);
    for (const run of substringChecks(parts)) {
      where.push('strpos(lower(n.text), ?) > 0');
      params.push(run);
    }
  }
  params.push(input.limit + 1);
  const rows = await em.execute<{ id: string; daily_date: string; text: string; updated_at: Date }[]>(
    `select distinct on (n.daily_date) n.id, n.daily_date, n.text, n.updated_at from highlight n
     where ${where.join(' and ')} order by n.daily_date desc, n.updated_at desc limit ?`,
    params,
  );
  const items = rows.slice(0, input.limit).map((r) => ({
    id: r.id,
    date: r.daily_date,
    excerpt: r.text.replace(/\s+/g, ' ').trim().slice(0, 200),
    updatedAt: new Date(r.updated_at),
  }));
  return { items, nextCursor: rows.length > input.limit ? (items.at(-1)?.date ?? null) : null };
}
