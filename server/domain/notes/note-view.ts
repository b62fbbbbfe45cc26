import type { NoteDetail, NoteSummary } from '../../../src/schemas/notes.ts';
import type { Note, NoteContent } from '../../db/entities/index.ts';

/** A note as clients see it (entities never leave the server raw). */
export function toNoteSummary(note: Note): NoteSummary {
  return {
    id: note.id,
    url: note.url,
    title: note.title,
    siteName: note.siteName ?? null,
    author: note.author ?? null,
    publishedAt: note.publishedAt ?? null,
    leadImageUrl: note.leadImageUrl ?? null,
    excerpt: note.excerpt,
    lang: note.lang ?? null,
    wordCount: note.wordCount,
    flow: note.flow,
    tags: note.tags,
    clipStatus: note.clipStatus,
    clipError: note.clipError ?? null,
    highlightCount: note.highlightCount,
    createdAt: note.createdAt,
    updatedAt: note.updatedAt,
  };
}

export function toNoteDetail(note: Note, content: NoteContent | null): NoteDetail {
  return { ...toNoteSummary(note), contentHtml: content?.contentHtml ?? '', text: content?.text ?? '' };
}

const toDate = (v: unknown): Date | null => (v == null ? null : v instanceof Date ? v : new Date(String(v)));

/** A raw `note` row (snake_case, as list queries select it) straight to the client shape. */
export function rowToNoteSummary(row: Record<string, unknown>): NoteSummary {
  return {
    id: String(row.id),
    url: String(row.url),
    title: String(row.title),
    siteName: (row.site_name as string | null) ?? null,
    author: (row.author as string | null) ?? null,
    publishedAt: toDate(row.published_at),
    leadImageUrl: (row.lead_image_url as string | null) ?? null,
    excerpt: String(row.excerpt ?? ''),
    lang: (row.lang as string | null) ?? null,
    wordCount: Number(row.word_count ?? 0),
    flow: Number(row.flow),
    tags: (row.tags as string[] | null) ?? [],
    clipStatus: Number(row.clip_status),
    clipError: (row.clip_error as string | null) ?? null,
    highlightCount: Number(row.highlight_count ?? 0),
    createdAt: toDate(row.created_at) as Date,
    updatedAt: toDate(row.updated_at) as Date,
  };
}
