import type { EntityManager } from '@mikro-orm/postgresql';
import { anchor, anchorAll } from '../../../src/anchoring/index.ts';
import type { HighlightSelectors } from '../../../src/anchoring/types.ts';
import { CoreType, NoteKind } from '../../../src/enums.ts';
import { AppError } from '../../../src/errors.ts';
import { findMathError } from '../../../src/rules/math.ts';
import { newNoteId } from '../../../src/rules/note-id.ts';
import type { CreateHighlightInput, UpdateHighlightInput } from '../../../src/schemas/highlights.ts';
import { queryParts, substringChecks, tsqueryLiteral } from '../../../src/search/tokens.ts';
import { clock } from '../../clock.ts';
import { Note, Page, PageContent, type User } from '../../db/entities/index.ts';
import { pgTextArray } from '../../db/pg-array.ts';
import { decodeCursor, pageOf } from '../cursor.ts';
import { indexNote, indexPageNotes } from '../search/search-index.ts';
import { rowToHighlightListItem } from './highlight-view.ts';

/** Highlights and image highlights count towards the page's highlight count; text notes don't. */
const COUNTED = new Set<number>([CoreType.highlight, CoreType.image]);

function checkMath(annotation: string | null | undefined): void {
  if (!annotation) return;
  const error = findMathError(annotation);
  if (error) throw new AppError('BAD_REQUEST', error.messageKey, { detail: error.detail });
}

async function ownPage(em: EntityManager, user: User, pageId: string): Promise<Page> {
  const page = await em.findOne(Page, { id: pageId, user: user.id });
  if (!page) throw new AppError('NOT_FOUND');
  return page;
}

/** Where the selectors land in the page text now (position first, then quote, then fuzzy). */
function place(text: string, selectors: HighlightSelectors | null | undefined) {
  if (!selectors) return { positionStart: null, positionEnd: null, detached: false };
  const result = anchor(text, selectors);
  return result.status === 'detached'
    ? { positionStart: null, positionEnd: null, detached: true }
    : { positionStart: result.start, positionEnd: result.end, detached: false };
}

/**
 * Creates a highlight or note with the client's id. Repeating the same create returns the
 * existing note (an offline queue or a retry is harmless); the page's highlight count moves in
 * the same transaction, by one, only when a row was really inserted.
 */
export async function createHighlight(
  em: EntityManager,
  user: User,
  input: CreateHighlightInput,
): Promise<Note> {
  checkMath(input.annotation);
  const page = await ownPage(em, user, input.pageId);
  const content = await em.findOne(PageContent, { page: page.id });
  const placement = place(content?.text ?? '', input.selectors);
  const now = clock.now();
  return em.transactional(async (tem) => {
    const inserted = await tem
      .createQueryBuilder(Note)
      .insert({
        id: input.id,
        user: user.id,
        page: page.id,
        coreType: input.coreType,
        text:
          input.coreType === CoreType.highlight && input.selectors ? input.selectors.quote.exact : input.text,
        slotId: input.slotId,
        style: input.style,
        imageUrl: input.imageUrl ?? null,
        selectors: input.selectors ?? null,
        ...placement,
        annotation: input.annotation || null,
        annotationId: input.annotation ? newNoteId() : null,
        annotatedAt: input.annotation ? now : null,
        tags: input.tags,
        createdAt: now,
        updatedAt: now,
      })
      .onConflict(['user', 'id'])
      .ignore()
      .execute('run');
    const note = await tem.findOne(Note, { id: input.id, user: user.id });
    if (!note || (note.page as unknown as { id: string })?.id !== page.id) throw new AppError('CONFLICT');
    if (inserted.affectedRows === 1) {
      await indexNote(tem, { userId: user.id, id: note.id }, note);
      await indexPageNotes(tem, page.id);
      if (COUNTED.has(input.coreType)) {
        await tem.execute('update "page" set "highlight_count" = "highlight_count" + 1 where "id" = ?', [
          page.id,
        ]);
      }
    }
    return note;
  });
}

export async function updateHighlight(
  em: EntityManager,
  user: User,
  input: UpdateHighlightInput,
): Promise<Note> {
  const note = await em.findOne(Note, { id: input.id, user: user.id });
  if (!note) throw new AppError('NOT_FOUND');
  if (input.slotId !== undefined) note.slotId = input.slotId;
  if (input.style !== undefined) note.style = input.style;
  if (input.tags !== undefined) note.tags = input.tags;
  if (input.text !== undefined && note.coreType === CoreType.textNote) {
    if (!input.text.trim()) throw new AppError('BAD_REQUEST', 'errors.cannotBeEmpty');
    note.text = input.text;
  }
  if (input.annotation !== undefined) {
    checkMath(input.annotation);
    const message = input.annotation?.trim() ? input.annotation : null;
    if (message !== note.annotation) {
      note.annotation = message;
      note.annotationId = message ? (note.annotationId ?? newNoteId()) : null;
      note.annotatedAt = message ? clock.now() : null;
    }
  }
  const pageId = (note.page as unknown as { id: string } | null)?.id;
  await em.transactional(async (tem) => {
    await tem.flush();
    await indexNote(tem, { userId: user.id, id: note.id }, note);
    if (pageId) await indexPageNotes(tem, pageId);
  });
  return note;
}

/** Deletes one of the user's notes; the page count drops by one only if a row was deleted. */
export async function deleteHighlight(em: EntityManager, user: User, id: string): Promise<void> {
  await em.transactional(async (tem) => {
    const rows = await tem.execute<{ page_id: string | null; core_type: number }[]>(
      'delete from "note" where "id" = ? and "user_id" = ? returning "page_id", "core_type"',
      [id, user.id],
    );
    const deleted = rows[0];
    if (!deleted) throw new AppError('NOT_FOUND');
    if (deleted.page_id) await indexPageNotes(tem, deleted.page_id);
    if (deleted.page_id && COUNTED.has(deleted.core_type)) {
      await tem.execute(
        'update "page" set "highlight_count" = greatest("highlight_count" - 1, 0) where "id" = ?',
        [deleted.page_id],
      );
    }
  });
}

/** The page (or day) a note belongs to, for the `?nx=` deep link. */
export async function locateHighlight(em: EntityManager, user: User, id: string) {
  const note = await em.findOne(Note, { id, user: user.id }, { fields: ['id', 'page', 'dailyDate'] });
  if (!note) throw new AppError('NOT_FOUND');
  const page = note.page as unknown as { id: string } | null;
  return { pageId: page?.id ?? null, dailyDate: note.dailyDate ?? null };
}

/** A page's notes in reading order (detached ones last). */
export async function pageHighlights(em: EntityManager, user: User, pageId: string): Promise<Note[]> {
  await ownPage(em, user, pageId);
  return em.find(
    Note,
    { page: pageId, user: user.id },
    { orderBy: { positionStart: 'asc nulls last', createdAt: 'asc' } },
  );
}

export interface HighlightFilter {
  pageId?: string | undefined;
  slotId?: number | undefined;
  tag?: string | undefined;
  q?: string | undefined;
  limit: number;
  cursor?: string | null | undefined;
}

/**
 * Every highlight across pages, newest first, filtered by colour, tag, page and keywords;
 * keyset-paginated, one statement, rows mapped straight to the list shape.
 */
export async function listHighlights(em: EntityManager, user: User, filter: HighlightFilter) {
  if (filter.pageId) await ownPage(em, user, filter.pageId);
  const params: unknown[] = [user.id];
  const where = ['n.user_id = ?', 'n.page_id is not null', `n.kind <> ${NoteKind.daily}`];
  if (filter.pageId) {
    where.push('n.page_id = ?');
    params.push(filter.pageId);
  }
  if (filter.slotId !== undefined) {
    where.push('n.slot_id = ?');
    params.push(filter.slotId);
  }
  if (filter.tag !== undefined) {
    where.push('n.tags @> ?::text[]');
    params.push(pgTextArray([filter.tag]));
  }
  const parts = queryParts(filter.q ?? '');
  const tsquery = tsqueryLiteral(parts);
  if (tsquery) {
    where.push('n.search_vector @@ ?::tsquery');
    params.push(tsquery);
    for (const run of substringChecks(parts)) {
      where.push(`strpos(n.text || ' ' || coalesce(n.annotation, ''), ?) > 0`);
      params.push(run);
    }
  }
  const after = decodeCursor(filter.cursor);
  if (after) {
    where.push('(n.created_at, n.id) < (?, ?)');
    params.push(after.createdAt, after.id);
  }
  params.push(filter.limit + 1);
  const rows = await em.execute<Record<string, unknown>[]>(
    `select n.id, n.page_id, n.kind, n.core_type, n.text, n.slot_id, n.style, n.image_url, n.selectors,
       n.position_start, n.detached, n.annotation_id, n.annotation, n.annotated_at, n.tags, n.created_at,
       n.updated_at, p.title as page_title, p.url as page_url
     from note n join page p on p.id = n.page_id
     where ${where.join(' and ')} order by n.created_at desc, n.id desc limit ?`,
    params,
  );
  return pageOf(rows.map(rowToHighlightListItem), filter.limit);
}

/**
 * After a page's text changes (re-parse), its highlights move with their text; one that
 * cannot be placed is kept and marked detached, never dropped.
 */
export async function reanchorPage(
  em: EntityManager,
  pageId: string,
  text: string,
): Promise<{ moved: number; detached: number }> {
  const notes = await em.find(Note, { page: pageId, selectors: { $ne: null } });
  if (!notes.length) return { moved: 0, detached: 0 };
  const results = anchorAll(
    text,
    notes.map((n) => n.selectors as HighlightSelectors),
  );
  let detached = 0;
  notes.forEach((note, i) => {
    const result = results[i];
    if (!result || result.status === 'detached') {
      note.detached = true;
      note.positionStart = null;
      note.positionEnd = null;
      detached++;
      return;
    }
    note.detached = false;
    note.positionStart = result.start;
    note.positionEnd = result.end;
    // The next re-anchor starts from where the text is now.
    const selectors = note.selectors as HighlightSelectors;
    note.selectors = {
      ...selectors,
      position: { type: 'TextPositionSelector', start: result.start, end: result.end },
    };
  });
  await em.flush();
  return { moved: notes.length - detached, detached };
}
