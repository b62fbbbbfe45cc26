import type { NoteDetail, NoteSummary } from '../../../src/schemas/notes.ts';
import type { Note, NoteContent } from '../../db/entities/index.ts';
import { asDate, asEpochMs, epochMsSql, type FieldReader, refId } from '../../db/row.ts';

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

/** A nullable column as JSON text: PostgreSQL's to_json is null for null. */
const jsonOrNull = (sql: string) => `coalesce(to_json(${sql})::text, 'null')`;

/**
 * The summary as PostgreSQL writes it, for a `note` row aliased `n`: the same fields, in the same
 * order, with the same values as `noteSummary`, and byte for byte what JSON.stringify makes of it
 * (to_json escapes strings as JSON.stringify does and writes no spaces, unlike json_build_object;
 * no newline, so a JSON line stays one line). The list sends it as it is: no row reaches JS.
 */
export function noteSummaryJsonSql(): string {
  const fields: [keyof NoteSummary, string][] = [
    ['id', 'to_json(n.id)'],
    ['url', 'to_json(n.url)'],
    ['title', 'to_json(n.title)'],
    ['siteName', jsonOrNull('n.site_name')],
    ['leadImageUrl', jsonOrNull('n.lead_image_url')],
    ['image', jsonOrNull('n.image')],
    ['excerpt', "to_json(coalesce(n.excerpt, ''))"],
    ['flow', 'to_json(n.flow)'],
    ['tags', "to_json(coalesce(n.tags, '{}'))"],
    ['clipStatus', 'to_json(n.clip_status)'],
    ['clipError', jsonOrNull('n.clip_error')],
    ['highlightCount', 'to_json(coalesce(n.highlight_count, 0))'],
    ['folderId', jsonOrNull('n.folder_id')],
    ['createdAt', `to_json(${epochMsSql('n.created_at')})`],
    ['updatedAt', `to_json(${epochMsSql('n.updated_at')})`],
  ];
  const parts = fields.map(([name, value], i) => `'${i ? ',' : '{'}"${name}":' || ${value}`);
  return `${parts.join(' || ')} || '}'`;
}
