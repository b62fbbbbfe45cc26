import type { EntityManager } from '@mikro-orm/postgresql';
import { absoluteMarginLinks, deepLinkSearch } from '../../../src/deep-link.ts';
import { ColourSlot, CoreType, DEFAULT_SLOT_COLOURS, NoteKind, ViewStyle } from '../../../src/enums.ts';
import { mathSegments } from '../../../src/rules/math.ts';
import {
  type ExportHighlight,
  ExportHighlightType,
  type ExportRecord,
  type IntegrationSettings,
} from '../../../src/schemas/sync.ts';
import type { User } from '../../db/entities/index.ts';
import { pgTextArray } from '../../db/pg-array.ts';
import { asEpochSeconds } from '../../db/row.ts';
import { exportedNotesCondition } from './note-filter.ts';

interface NoteRow {
  id: string;
  kind: number;
  url: string;
  title: string;
  site_name: string | null;
  author: string | null;
  tags: string[];
  flow: number;
  folder: string | null;
  content: string | null;
  created_at: Date;
  updated_at: Date;
  published_at: Date | null;
}

interface HighlightRow {
  id: string;
  note_id: string;
  core_type: number;
  text: string;
  slot_id: number;
  image_url: string | null;
  annotation: string | null;
  tags: string[];
  created_at: Date;
  updated_at: Date;
}

function highlightType(row: HighlightRow): ExportHighlightType {
  if (row.core_type === CoreType.image) return ExportHighlightType.image;
  if (row.core_type === CoreType.textNote) return ExportHighlightType.textNote;
  return mathSegments(row.text).length ? ExportHighlightType.math : ExportHighlightType.text;
}

function exportHighlight(row: HighlightRow, baseUrl: string): ExportHighlight {
  const slot = (row.slot_id in DEFAULT_SLOT_COLOURS ? row.slot_id : ColourSlot.c1) as ColourSlot;
  return {
    id: row.id,
    type: highlightType(row),
    text: row.text,
    imageUrl: row.image_url,
    annotation: row.annotation,
    slot,
    color: DEFAULT_SLOT_COLOURS[slot],
    tags: row.tags,
    link: `${baseUrl}/${deepLinkSearch({ kind: 'highlight', highlightId: row.id, viewStyle: ViewStyle.article })}`,
    createdAt: asEpochSeconds(row.created_at),
    updatedAt: asEpochSeconds(row.updated_at),
  };
}

/**
 * The export records of those of `noteIds` the integration exports (the rest are left out: the
 * caller reports them deleted), in two queries whatever their number: the notes with their
 * folder names and daily Markdown, then all their highlights in reading order. A daily note,
 * which has no title of its own, is titled by its day (`2026-12-02`): note tools name files
 * and headings by the title.
 */
export async function exportRecords(
  em: EntityManager,
  user: User,
  settings: IntegrationSettings,
  noteIds: readonly string[],
  baseUrl: string,
): Promise<ExportRecord[]> {
  if (!noteIds.length) return [];
  const exported = exportedNotesCondition(user, settings);
  const notes = await em.execute<NoteRow[]>(
    `select n.id, n.kind, n.url,
       case when n.kind = ${NoteKind.daily} then coalesce(nullif(n.title, ''), n.daily_date) else n.title end as title,
       n.site_name, n.author, n.tags, n.flow, f.name as folder,
       case when n.kind = ${NoteKind.daily} then c.text end as content,
       n.created_at, n.updated_at, n.published_at
     from note n
     left join folder f on f.id = n.folder_id
     left join note_content c on c.note_id = n.id and n.kind = ${NoteKind.daily}
     where n.user_id = ? and n.id = any(?::text[]) and ${exported.sql}
     order by n.id`,
    [user.id, pgTextArray(noteIds), ...exported.params],
  );
  if (!notes.length) return [];
  const highlights = await em.execute<HighlightRow[]>(
    `select id, note_id, core_type, text, slot_id, image_url, annotation, tags, created_at, updated_at
     from highlight where user_id = ? and note_id = any(?::text[])
     order by note_id, detached, position_start nulls last, created_at, id`,
    [user.id, pgTextArray(notes.map((n) => n.id))],
  );
  const byNote = Map.groupBy(highlights, (h) => h.note_id);
  return notes.map((n) => ({
    id: n.id,
    kind: n.kind === NoteKind.daily ? 'daily' : 'page',
    title: n.title,
    url: n.url,
    readerUrl: `${baseUrl}/${deepLinkSearch({ kind: 'note', noteId: n.id, viewStyle: ViewStyle.article })}`,
    siteName: n.site_name,
    author: n.author,
    tags: n.tags,
    folder: n.folder,
    flow: n.flow,
    content: absoluteMarginLinks(n.content ?? '', baseUrl),
    createdAt: asEpochSeconds(n.created_at),
    updatedAt: asEpochSeconds(n.updated_at),
    publishedAt: n.published_at ? asEpochSeconds(n.published_at) : null,
    highlights: (byNote.get(n.id) ?? []).map((h) => exportHighlight(h, baseUrl)),
  }));
}
