import type { EntityManager } from '@mikro-orm/postgresql';
import { highlightsMarkdown, highlightsText } from '../../../src/rules/highlight-format.ts';
import type { User } from '../../db/entities/index.ts';
import { getNote, safeFilename } from '../notes/notes.service.ts';
import { noteHighlights } from './highlights.service.ts';

/** A note's highlights as one Markdown or plain-text file named after the note. */
export async function exportHighlights(
  em: EntityManager,
  user: User,
  input: { noteId: string; format: 'markdown' | 'text' },
) {
  const { note } = await getNote(em, user, input.noteId);
  const highlights = await noteHighlights(em, user, input.noteId);
  const markdown = input.format === 'markdown';
  return {
    filename: safeFilename(`${note.title} - highlights`, markdown ? 'md' : 'txt'),
    mimeType: markdown ? 'text/markdown;charset=utf-8' : 'text/plain;charset=utf-8',
    content: markdown ? highlightsMarkdown(note, highlights) : highlightsText(note, highlights),
  };
}
