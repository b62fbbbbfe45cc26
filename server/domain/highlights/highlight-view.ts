import { noteHasLink } from '../../../src/rules/link.ts';
import type { Highlight, HighlightListItem } from '../../../src/schemas/highlights.ts';
import type { Note } from '../../db/entities/index.ts';

function pageIdOf(note: Note): string | null {
  const page = note.page as unknown as { id: string } | string | null | undefined;
  if (!page) return null;
  return typeof page === 'string' ? page : page.id;
}

export function toHighlight(note: Note): Highlight {
  return {
    id: note.id,
    pageId: pageIdOf(note),
    kind: note.kind,
    coreType: note.coreType,
    text: note.text,
    slotId: note.slotId,
    style: note.style,
    imageUrl: note.imageUrl ?? null,
    selectors: note.selectors ?? null,
    positionStart: note.positionStart ?? null,
    detached: note.detached,
    annotation:
      note.annotation && note.annotationId && note.annotatedAt
        ? { id: note.annotationId, message: note.annotation, createdAt: note.annotatedAt }
        : null,
    tags: note.tags,
    hasLink: noteHasLink(note.text, note.coreType),
    createdAt: note.createdAt,
    updatedAt: note.updatedAt,
  };
}

const date = (v: unknown) => (v instanceof Date ? v : new Date(String(v)));

/** A raw note row joined with its page's title and url, straight to the list shape. */
export function rowToHighlightListItem(row: Record<string, unknown>): HighlightListItem {
  const text = String(row.text ?? '');
  const coreType = Number(row.core_type);
  return {
    id: String(row.id),
    pageId: (row.page_id as string | null) ?? null,
    kind: Number(row.kind),
    coreType,
    text,
    slotId: Number(row.slot_id),
    style: Number(row.style),
    imageUrl: (row.image_url as string | null) ?? null,
    selectors: (row.selectors as Highlight['selectors']) ?? null,
    positionStart: row.position_start == null ? null : Number(row.position_start),
    detached: Boolean(row.detached),
    annotation:
      row.annotation && row.annotation_id && row.annotated_at
        ? {
            id: String(row.annotation_id),
            message: String(row.annotation),
            createdAt: date(row.annotated_at),
          }
        : null,
    tags: (row.tags as string[] | null) ?? [],
    hasLink: noteHasLink(text, coreType),
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
    page: row.page_id
      ? { id: String(row.page_id), title: String(row.page_title ?? ''), url: String(row.page_url ?? '') }
      : null,
  };
}
