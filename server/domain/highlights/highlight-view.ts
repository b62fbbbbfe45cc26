import { textNoteHasLink } from '../../../src/rules/link.ts';
import type { HighlightListItem, Highlight as HighlightView } from '../../../src/schemas/highlights.ts';
import type { Highlight } from '../../db/entities/index.ts';
import { asEpochMs, type FieldReader, refId, rowReader } from '../../db/row.ts';

/** What the client's highlight is built from: the entity's columns, by property name. */
type HighlightField =
  | Exclude<keyof HighlightView, 'noteId' | 'annotation' | 'hasLink'>
  | 'noteId'
  | 'annotationId'
  | 'annotation'
  | 'annotatedAt';

/** The one mapping to the client's highlight, whatever it was read from. */
function highlightView(read: FieldReader<HighlightField>): HighlightView {
  const text = String(read('text') ?? '');
  const coreType = Number(read('coreType'));
  const positionStart = read('positionStart');
  const [annotationId, annotation, annotatedAt] = [
    read('annotationId'),
    read('annotation'),
    read('annotatedAt'),
  ];
  return {
    id: String(read('id')),
    noteId: (read('noteId') as string | null | undefined) ?? null,
    coreType,
    text,
    slotId: Number(read('slotId')),
    style: Number(read('style')),
    imageUrl: (read('imageUrl') as string | null | undefined) ?? null,
    selectors: (read('selectors') as HighlightView['selectors'] | undefined) ?? null,
    positionStart: positionStart == null ? null : Number(positionStart),
    detached: Boolean(read('detached')),
    annotation:
      annotation && annotationId && annotatedAt
        ? { id: String(annotationId), message: String(annotation), createdAt: asEpochMs(annotatedAt) }
        : null,
    tags: (read('tags') as string[] | null | undefined) ?? [],
    hasLink: textNoteHasLink(text, coreType),
    createdAt: asEpochMs(read('createdAt')),
    updatedAt: asEpochMs(read('updatedAt')),
  };
}

export function toHighlightView(highlight: Highlight): HighlightView {
  return highlightView((field) => (field === 'noteId' ? refId(highlight.note) : highlight[field]));
}

/** A raw highlight row (snake_case columns) straight to the client's highlight. */
export function rowToHighlightView(row: Record<string, unknown>): HighlightView {
  return highlightView(rowReader(row));
}

/** A raw highlight row joined with its note's title, url and state, straight to the list shape. */
export function rowToHighlightListItem(row: Record<string, unknown>): HighlightListItem {
  return {
    ...rowToHighlightView(row),
    note: row.note_id
      ? {
          id: String(row.note_id),
          title: String(row.note_title ?? ''),
          url: String(row.note_url ?? ''),
          flow: Number(row.note_flow),
          trashed: row.note_trashed === true,
        }
      : null,
  };
}
