import { defineEntity, p } from '@mikro-orm/core';
import { clock } from '../../clock.ts';
import { Note } from './note.entity.ts';

/**
 * The heavy part of a note, kept apart so lists never load it: the original HTML (kept for
 * re-parsing), the sanitised article HTML the reader renders, and the plain text highlights
 * anchor into.
 */
export const NoteContentSchema = defineEntity({
  name: 'NoteContent',
  tableName: 'note_content',
  properties: {
    note: () => p.oneToOne(Note).primary().deleteRule('cascade').owner(),
    originalHtml: p.text().lazy().nullable(),
    contentHtml: p.text().default(''),
    text: p.text().default(''),
    updatedAt: p
      .datetime()
      .onCreate(() => clock.now())
      .onUpdate(() => clock.now()),
  },
});

export class NoteContent extends NoteContentSchema.class {}
NoteContentSchema.setClass(NoteContent);
