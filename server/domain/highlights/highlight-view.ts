import { textNoteHasLink } from '../../../src/rules/link.ts';
import type { HighlightListItem, Highlight as HighlightView } from '../../../src/schemas/highlights.ts';
import type { Highlight } from '../../db/entities/index.ts';

function noteIdOf(highlight: Highlight): string | null {
  const note = highlight.note as unknown as { id: string } | string | null | undefined;
  if (!note) return null;
  return typeof note === 'string' ? note : note.id;
}

export function toHighlightView(highlight: Highlight): HighlightView {
  return {
    id: highlight.id,
    noteId: noteIdOf(highlight),
    kind: highlight.kind,
    coreType: highlight.coreType,
    text: highlight.text,
    slotId: highlight.slotId,
    style: highlight.style,
    imageUrl: highlight.imageUrl ?? null,
    selectors: highlight.selectors ?? null,
    positionStart: highlight.positionStart ?? null,
    detached: highlight.detached,
    annotation:
      highlight.annotation && highlight.annotationId && highlight.annotatedAt
        ? { id: highlight.annotationId, message: highlight.annotation, createdAt: highlight.annotatedAt }
        : null,
    tags: highlight.tags,
    hasLink: textNoteHasLink(highlight.text, highlight.coreType),
    createdAt: highlight.createdAt,
    updatedAt: highlight.updatedAt,
  };
}

const date = (v: unknown) => (v instanceof Date ? v : new Date(String(v)));

/** A raw highlight row joined with its note's title and url, straight to the list shape. */
export function rowToHighlightListItem(row: Record<string, unknown>): HighlightListItem {
  const text = String(row.text ?? '');
  const coreType = Number(row.core_type);
  return {
    id: String(row.id),
    noteId: (row.note_id as string | null) ?? null,
    kind: Number(row.kind),
    coreType,
    text,
    slotId: Number(row.slot_id),
    style: Number(row.style),
    imageUrl: (row.image_url as string | null) ?? null,
    selectors: (row.selectors as HighlightView['selectors']) ?? null,
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
    hasLink: textNoteHasLink(text, coreType),
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
    note: row.note_id
      ? { id: String(row.note_id), title: String(row.note_title ?? ''), url: String(row.note_url ?? '') }
      : null,
  };
}
