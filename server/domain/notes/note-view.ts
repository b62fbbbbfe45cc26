import type { NoteDetail, NoteSummary } from '../../../src/schemas/notes.ts';
import type { Note, NoteContent } from '../../db/entities/index.ts';
import { asDate, asEpochMs, type FieldReader, refId, rowReader } from '../../db/row.ts';

/** The one mapping to the client's summary, whatever the note was read from. */
function noteSummary(read: FieldReader<keyof NoteSummary>): NoteSummary {
  return {
    id: String(read('id')),
    url: String(read('url')),
    title: String(read('title')),
    siteName: (read('siteName') as string | null | undefined) ?? null,
    leadImageUrl: (read('leadImageUrl') as string | null | undefined) ?? null,
    image: (read('image') as string | null | undefined) ?? null,
    excerpt: String(read('excerpt') ?? ''),
    flow: Number(read('flow')),
    tags: (read('tags') as string[] | null | undefined) ?? [],
    clipStatus: Number(read('clipStatus')),
    clipError: (read('clipError') as string | null | undefined) ?? null,
    highlightCount: Number(read('highlightCount') ?? 0),
    folderId: (read('folderId') as string | null | undefined) ?? null,
    createdAt: asEpochMs(read('createdAt')),
    updatedAt: asEpochMs(read('updatedAt')),
  };
}

/** A note as clients see it (entities never leave the server raw). */
export function toNoteSummary(note: Note): NoteSummary {
  return noteSummary((field) => (field === 'folderId' ? refId(note.folder) : note[field]));
}

/** `article`: the article as the reader shows it (its images Margin's copies or placeholders). */
export function toNoteDetail(
  note: Note,
  content: NoteContent | null,
  article: { contentHtml: string; imagesPending: boolean },
): NoteDetail {
  return {
    ...toNoteSummary(note),
    author: note.author ?? null,
    publishedAt: note.publishedAt ? asDate(note.publishedAt) : null,
    lang: note.lang ?? null,
    wordCount: note.wordCount,
    contentHtml: article.contentHtml,
    text: content?.text ?? '',
    readingProgress:
      note.readingOffset == null || note.readingFraction == null
        ? null
        : { offset: note.readingOffset, fraction: note.readingFraction },
    imagesPending: article.imagesPending,
  };
}

/** A raw `note` row (snake_case, as the list query selects it) straight to the client shape. */
export function rowToNoteSummary(row: Record<string, unknown>): NoteSummary {
  return noteSummary(rowReader(row));
}
