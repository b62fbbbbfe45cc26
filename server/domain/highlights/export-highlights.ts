import type { EntityManager } from '@mikro-orm/postgresql';
import { highlightsMarkdown, highlightsText } from '../../../src/rules/highlight-format.ts';
import type { User } from '../../db/entities/index.ts';
import { type ExportFormat, exportFile } from '../notes/notes.service.ts';
import { noteWithHighlights } from './highlights.service.ts';

/** A note's highlights as one Markdown or plain-text file named after the note. */
export async function exportHighlights(
  em: EntityManager,
  user: User,
  input: { noteId: string; format: ExportFormat },
) {
  const { note, highlights } = await noteWithHighlights(em, user, input.noteId);
  const content =
    input.format === 'markdown' ? highlightsMarkdown(note, highlights) : highlightsText(note, highlights);
  return exportFile(input.format, `${note.title} - highlights`, content);
}
