import { noteHasLink } from '../../../src/rules/link.ts';
import type { Highlight } from '../../../src/schemas/highlights.ts';
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
