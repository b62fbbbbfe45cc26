import type { EntityManager } from '@mikro-orm/postgresql';
import { anchor, anchorAll } from '../../../src/anchoring/index.ts';
import type { HighlightSelectors } from '../../../src/anchoring/types.ts';
import { CoreType, HighlightSort, NoteKind } from '../../../src/enums.ts';
import { AppError } from '../../../src/errors.ts';
import { newId } from '../../../src/rules/id.ts';
import { findMathError } from '../../../src/rules/math.ts';
import type {
  CreateHighlightInput,
  Highlight as HighlightView,
  ReattachHighlightInput,
  UpdateHighlightInput,
} from '../../../src/schemas/highlights.ts';
import { clock } from '../../clock.ts';
import { Highlight, Note, NoteContent, type User } from '../../db/entities/index.ts';
import { pgTextArray } from '../../db/pg-array.ts';
import { preparedRows } from '../../db/prepared.ts';
import { asDate } from '../../db/row.ts';
import { type ChangeDeps, change } from '../changes.ts';
import { cursorId, cursorInstant, cursorJson, decodeCursor, invalidCursor, pageOf } from '../cursor.ts';
import { ownNote } from '../notes/notes.service.ts';
import { type SearchTarget, userSearchCondition } from '../search/search-condition.ts';
import { indexHighlight, indexNoteHighlights } from '../search/search-index.ts';
import { highlightOf } from '../webhooks/event-data.ts';
import { recordHighlightEvents, recordWebhookEvent } from '../webhooks/events.ts';
import { rowToHighlightListItem, rowToHighlightView, toHighlightView } from './highlight-view.ts';

function checkMath(annotation: string | null | undefined): void {
  if (!annotation) return;
  const error = findMathError(annotation);
  if (error) throw new AppError('BAD_REQUEST', error.messageKey, { detail: error.detail });
}

/** Highlights live on the user's web notes; a daily note's text is not highlighted. */
/** Where the selectors land in the note text now (position first, then quote, then fuzzy). */
function place(text: string, selectors: HighlightSelectors | null | undefined) {
  if (!selectors) return { positionStart: null, positionEnd: null, detached: false };
  const result = anchor(text, selectors);
  return result.status === 'detached'
    ? { positionStart: null, positionEnd: null, detached: true }
    : { positionStart: result.start, positionEnd: result.end, detached: false };
}

/**
 * Creates a highlight, image highlight or text note with the client's id. Repeating the same
 * create returns the existing highlight (an offline queue or a retry is harmless). The note's
 * highlight count is the database's (a trigger on highlight).
 */
export async function createHighlight(
  deps: ChangeDeps,
  user: User,
  input: CreateHighlightInput,
): Promise<HighlightView> {
  checkMath(input.annotation);
  const note = await ownNote(deps.em, user, input.noteId);
  const content = await deps.em.findOne(NoteContent, { note: note.id });
  const placement = place(content?.text ?? '', input.selectors);
  const now = clock.now();
  return change(deps, user, async ({ tx: tem }) => {
    const inserted = await tem
      .createQueryBuilder(Highlight)
      .insert({
        id: input.id,
        user: user.id,
        note: note.id,
        coreType: input.coreType,
        text:
          input.coreType === CoreType.highlight && input.selectors ? input.selectors.quote.exact : input.text,
        slotId: input.slotId,
        style: input.style,
        imageUrl: input.imageUrl ?? null,
        selectors: input.selectors ?? null,
        ...placement,
        annotation: input.annotation || null,
        annotationId: input.annotation ? newId() : null,
        annotatedAt: input.annotation ? now : null,
        tags: input.tags,
        createdAt: now,
        updatedAt: now,
      })
      .onConflict(['user', 'id'])
      .ignore()
      .execute('run');
    const highlight = await tem.findOne(Highlight, { id: input.id, user: user.id });
    if (!highlight || (highlight.note as unknown as { id: string })?.id !== note.id)
      throw new AppError('CONFLICT');
    if (inserted.affectedRows === 1) {
      await recordWebhookEvent(tem, user, 'highlight.created', highlightOf(highlight));
      await indexHighlight(tem, { userId: user.id, id: highlight.id }, highlight);
      await indexNoteHighlights(tem, note.id);
    }
    return toHighlightView(highlight);
  });
}

export async function updateHighlight(
  deps: ChangeDeps,
  user: User,
  input: UpdateHighlightInput,
): Promise<HighlightView> {
  const em = deps.em;
  const highlight = await em.findOne(Highlight, { id: input.id, user: user.id });
  if (!highlight) throw new AppError('NOT_FOUND');
  if (input.slotId !== undefined) highlight.slotId = input.slotId;
  if (input.style !== undefined) highlight.style = input.style;
  if (input.tags !== undefined) highlight.tags = input.tags;
  if (input.text !== undefined && highlight.coreType === CoreType.textNote) {
    if (!input.text.trim()) throw new AppError('BAD_REQUEST', 'errors.cannotBeEmpty');
    highlight.text = input.text;
  }
  if (input.annotation !== undefined) {
    checkMath(input.annotation);
    const message = input.annotation?.trim() ? input.annotation : null;
    if (message !== highlight.annotation) {
      highlight.annotation = message;
      highlight.annotationId = message ? (highlight.annotationId ?? newId()) : null;
      highlight.annotatedAt = message ? clock.now() : null;
    }
  }
  const noteId = (highlight.note as unknown as { id: string } | null)?.id;
  await change(deps, user, async ({ tx: tem }) => {
    await tem.flush();
    await recordHighlightEvents(tem, user, 'highlight.updated', [highlight.id]);
    await indexHighlight(tem, { userId: user.id, id: highlight.id }, highlight);
    if (noteId) await indexNoteHighlights(tem, noteId);
  });
  return toHighlightView(highlight);
}

/**
 * Puts a text highlight on the passage the user selected instead, keeping its colour, style,
 * annotation and tags: how a highlight that could not be placed after the page changed is
 * brought back. The selection must be in the note's text as the server has it.
 */
export async function reattachHighlight(
  deps: ChangeDeps,
  user: User,
  input: ReattachHighlightInput,
): Promise<HighlightView> {
  const em = deps.em;
  const highlight = await em.findOne(Highlight, { id: input.id, user: user.id }, { populate: ['note'] });
  const note = highlight?.note as unknown as Note | null | undefined;
  if (!highlight || !note) throw new AppError('NOT_FOUND');
  if (highlight.coreType !== CoreType.highlight) throw new AppError('BAD_REQUEST', 'errors.invalidInput');
  const content = await em.findOne(NoteContent, { note: note.id });
  const placement = place(content?.text ?? '', input.selectors);
  if (placement.detached) throw new AppError('BAD_REQUEST', 'errors.selectionNotInPage');
  highlight.selectors = input.selectors;
  highlight.text = input.selectors.quote.exact;
  highlight.positionStart = placement.positionStart;
  highlight.positionEnd = placement.positionEnd;
  highlight.detached = false;
  highlight.updatedAt = clock.now();
  await change(deps, user, async ({ tx: tem }) => {
    await tem.flush();
    await recordHighlightEvents(tem, user, 'highlight.updated', [highlight.id]);
    await indexHighlight(tem, { userId: user.id, id: highlight.id }, highlight);
    await indexNoteHighlights(tem, note.id);
  });
  return toHighlightView(highlight);
}

/** One of the user's highlights. */
export async function getHighlight(em: EntityManager, user: User, id: string): Promise<HighlightView> {
  const highlight = await em.findOne(Highlight, { id, user: user.id });
  if (!highlight) throw new AppError('NOT_FOUND');
  return toHighlightView(highlight);
}

/** Deletes one of the user's highlights (the note's highlight count follows, by trigger). */
export async function deleteHighlight(deps: ChangeDeps, user: User, id: string): Promise<void> {
  await change(deps, user, async ({ tx: tem }) => {
    const rows = await tem.execute<{ note_id: string | null }[]>(
      'delete from "highlight" where "id" = ? and "user_id" = ? returning "note_id"',
      [id, user.id],
    );
    const deleted = rows[0];
    if (!deleted) throw new AppError('NOT_FOUND');
    await recordWebhookEvent(tem, user, 'highlight.deleted', { id, noteId: deleted.note_id });
    if (deleted.note_id) await indexNoteHighlights(tem, deleted.note_id);
  });
}

/**
 * Where a `?nx=` deep link points: a highlight's note, or — for links made before daily notes
 * were notes, when daily entries shared the highlights' ids — a daily note's day.
 */
export async function locateHighlight(em: EntityManager, user: User, id: string) {
  const highlight = await em.findOne(Highlight, { id, user: user.id }, { fields: ['id', 'note'] });
  const note = highlight?.note as unknown as { id: string } | null | undefined;
  if (note) return { noteId: note.id, dailyDate: null };
  const day = await em.findOne(
    Note,
    { id, user: user.id, kind: NoteKind.daily },
    { fields: ['id', 'dailyDate'] },
  );
  if (!day) throw new AppError('NOT_FOUND');
  return { noteId: null, dailyDate: day.dailyDate ?? null };
}

/** The highlight columns the client's highlight is mapped from (highlight-view.ts). */
const HIGHLIGHT_COLUMNS = `h.id, h.note_id, h.core_type, h.text, h.slot_id, h.style, h.image_url, h.selectors,
  h.position_start, h.detached, h.annotation_id, h.annotation, h.annotated_at, h.tags, h.created_at, h.updated_at`;

/**
 * A note's highlights in reading order (detached ones last), in one statement that also tells a
 * note that is not the user's web note (no row) from one without highlights (one row, no id).
 */
const NOTE_HIGHLIGHTS_SQL = `select ${HIGHLIGHT_COLUMNS}
  from note n left join highlight h on h.note_id = n.id and h.user_id = n.user_id
  where n.id = ? and n.user_id = ? and n.kind = ${NoteKind.web}
  order by h.position_start asc nulls last, h.created_at asc`;

/** A note's highlights in reading order (detached ones last), read without hydrating entities. */
export async function noteHighlights(
  em: EntityManager,
  user: User,
  noteId: string,
): Promise<HighlightView[]> {
  const rows = await preparedRows(em, NOTE_HIGHLIGHTS_SQL, [noteId, user.id]);
  if (!rows.length) throw new AppError('NOT_FOUND');
  return rows.filter((row) => row.id !== null).map(rowToHighlightView);
}

/** One of the user's web notes with its highlights in reading order. */
export async function noteWithHighlights(
  em: EntityManager,
  user: User,
  noteId: string,
): Promise<{ note: Note; highlights: HighlightView[] }> {
  const note = await ownNote(em, user, noteId);
  return { note, highlights: await noteHighlights(em, user, noteId) };
}

export interface HighlightFilter {
  noteId?: string | undefined;
  slotId?: number | undefined;
  tag?: string | undefined;
  q?: string | undefined;
  sort?: HighlightSort | undefined;
  limit: number;
  cursor?: string | null | undefined;
}

/** A highlight with no place in its note's text (detached, an image, a page note) sorts after those with one. */
const NO_POSITION = 2_147_483_647;
const POSITION_KEY = `coalesce(h.position_start, ${NO_POSITION})`;

/** Article order's keyset: the note (its saving time and id), then the place, creation time and id within it. */
interface ArticleKeyset {
  noteCreatedAt: Date;
  noteId: string;
  position: number;
  createdAt: Date;
  id: string;
}

function encodeArticleCursor(row: Record<string, unknown>): string {
  const key = [
    asDate(row.note_created_at).toISOString(),
    row.note_id,
    row.position_start ?? NO_POSITION,
    asDate(row.created_at).toISOString(),
    row.id,
  ];
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** The cursor `encodeArticleCursor` wrote, or a 400 (a newest-first cursor included). */
function decodeArticleCursor(cursor: string | null | undefined): ArticleKeyset | null {
  if (!cursor) return null;
  const parsed = cursorJson(cursor);
  if (!Array.isArray(parsed) || parsed.length !== 5) throw invalidCursor();
  const [noteCreatedAt, noteId, position, createdAt, id] = parsed as unknown[];
  if (typeof position !== 'number' || !Number.isInteger(position) || position < 0 || position > NO_POSITION)
    throw invalidCursor();
  return {
    noteCreatedAt: cursorInstant(noteCreatedAt),
    noteId: cursorId(noteId),
    position,
    createdAt: cursorInstant(createdAt),
    id: cursorId(id),
  };
}

/** The state of a listed highlight's note (its row shows starred, archived, in the trash…). */
const NOTE_STATE = 'n.flow as note_flow, n.trashed_at is not null as note_trashed';

/**
 * Every highlight across notes, filtered by colour, tag, note and keywords, newest first or in
 * article order (HighlightSort); keyset-paginated, one statement, rows mapped straight to the
 * list shape.
 */
export async function listHighlights(em: EntityManager, user: User, filter: HighlightFilter) {
  if (filter.noteId) await ownNote(em, user, filter.noteId);
  const params: unknown[] = [user.id];
  const where = ['h.user_id = ?', 'h.note_id is not null'];
  if (filter.noteId) {
    where.push('h.note_id = ?');
    params.push(filter.noteId);
  }
  if (filter.slotId !== undefined) {
    where.push('h.slot_id = ?');
    params.push(filter.slotId);
  }
  if (filter.tag !== undefined) {
    where.push('h.tags @> ?::text[]');
    params.push(pgTextArray([filter.tag]));
  }
  const q = filter.q ?? '';
  const search: SearchTarget = {
    table: 'highlight',
    alias: 'h',
    vectors: ['search_vector'],
    userId: user.id,
    contains: (run) => ({ sql: `strpos(h.text || ' ' || coalesce(h.annotation, ''), ?) > 0`, params: [run] }),
  };
  const matches = await userSearchCondition(em, q, search);
  if (matches) {
    where.push(matches.sql);
    params.push(...matches.params);
  }
  if (filter.sort === HighlightSort.positionInArticle) return listInArticleOrder(em, filter, where, params);
  const after = decodeCursor(filter.cursor);
  if (after) {
    where.push('(h.created_at, h.id) < (?, ?)');
    params.push(after.createdAt, after.id);
  }
  params.push(filter.limit + 1);
  // The page is chosen before its notes are joined: a search can match thousands of highlights,
  // and joining each to its note before sorting cost more than the search itself.
  const rows = await preparedRows(
    em,
    `select h.*, n.title as note_title, n.url as note_url, ${NOTE_STATE}
     from (select ${HIGHLIGHT_COLUMNS} from highlight h
       where ${where.join(' and ')} order by h.created_at desc, h.id desc limit ?) h
     join note n on n.id = h.note_id
     order by h.created_at desc, h.id desc`,
    params,
  );
  return pageOf(rows.map(rowToHighlightListItem), filter.limit);
}

/**
 * Article order: notes walked newest saved first by the note index (user, created_at), each
 * note's highlights fetched by the (note, position) index and sorted among themselves; a page
 * may end inside a note, so the keyset carries the note and the place in it.
 */
async function listInArticleOrder(
  em: EntityManager,
  filter: HighlightFilter,
  where: string[],
  params: unknown[],
) {
  const after = decodeArticleCursor(filter.cursor);
  if (after) {
    // The first condition alone starts the note index's walk at the cursor's note; the rest is exact.
    where.push(
      `n.created_at <= ? and ((n.created_at, n.id) < (?, ?) or (n.id = ? and (${POSITION_KEY}, h.created_at, h.id) > (?, ?, ?)))`,
    );
    params.push(
      after.noteCreatedAt,
      after.noteCreatedAt,
      after.noteId,
      after.noteId,
      after.position,
      after.createdAt,
      after.id,
    );
  }
  params.push(filter.limit + 1);
  const rows = await preparedRows(
    em,
    `select ${HIGHLIGHT_COLUMNS}, n.title as note_title, n.url as note_url, ${NOTE_STATE},
       n.created_at as note_created_at
     from highlight h join note n on n.id = h.note_id and n.user_id = h.user_id
     where ${where.join(' and ')}
     order by n.created_at desc, n.id desc, ${POSITION_KEY}, h.created_at, h.id
     limit ?`,
    params,
  );
  const items = rows.slice(0, filter.limit);
  const last = items.at(-1);
  return {
    items: items.map(rowToHighlightListItem),
    nextCursor: rows.length > filter.limit && last ? encodeArticleCursor(last) : null,
  };
}

/**
 * After a note's text changes (re-parse), its highlights move with their text; one that
 * cannot be placed is kept and marked detached, never dropped.
 */
export async function reanchorNote(
  em: EntityManager,
  noteId: string,
  text: string,
): Promise<{ moved: number; detached: number }> {
  const highlights = await em.find(Highlight, { note: noteId, selectors: { $ne: null } });
  if (!highlights.length) return { moved: 0, detached: 0 };
  const results = anchorAll(
    text,
    highlights.map((n) => n.selectors as HighlightSelectors),
  );
  let detached = 0;
  highlights.forEach((highlight, i) => {
    const result = results[i];
    if (!result || result.status === 'detached') {
      highlight.detached = true;
      highlight.positionStart = null;
      highlight.positionEnd = null;
      detached++;
      return;
    }
    highlight.detached = false;
    highlight.positionStart = result.start;
    highlight.positionEnd = result.end;
    // The next re-anchor starts from where the text is now.
    const selectors = highlight.selectors as HighlightSelectors;
    highlight.selectors = {
      ...selectors,
      position: { type: 'TextPositionSelector', start: result.start, end: result.end },
    };
  });
  await em.flush();
  return { moved: highlights.length - detached, detached };
}
