import { NoteKind } from '../../../src/enums.ts';
import { ExcludeRange, type IntegrationSettings } from '../../../src/schemas/sync.ts';
import type { User } from '../../db/entities/index.ts';
import { pgTextArray } from '../../db/pg-array.ts';

export interface SqlPart {
  sql: string;
  params: unknown[];
}

/**
 * Which of a user's notes an integration exports, as a condition on `note n`: none in the
 * trash; exclude range 1 leaves out pages without highlights, range 2 daily notes; the query
 * filter narrows by tags (any of them), folder, state (pages only; a daily note has none) and
 * the day saved, in the user's time zone.
 */
export function exportedNotesCondition(user: User, settings: IntegrationSettings): SqlPart {
  const parts = ['n.trashed_at is null'];
  const params: unknown[] = [];
  if (settings.excludeRanges & ExcludeRange.withoutHighlights)
    parts.push(`(n.kind = ${NoteKind.daily} or n.highlight_count > 0)`);
  if (settings.excludeRanges & ExcludeRange.dailyNotes) parts.push(`n.kind <> ${NoteKind.daily}`);
  const { tags, folderId, flows, since } = settings.filter;
  if (tags.length) {
    parts.push('n.tags && ?::text[]');
    params.push(pgTextArray(tags));
  }
  if (folderId) {
    parts.push('n.folder_id = ?');
    params.push(folderId);
  }
  if (flows.length) {
    parts.push(`(n.kind = ${NoteKind.daily} or n.flow = any(?::smallint[]))`);
    params.push(`{${flows.join(',')}}`);
  }
  if (since) {
    parts.push('n.created_at >= (?::timestamp at time zone ?)');
    params.push(since, user.timeZone);
  }
  return { sql: parts.join(' and '), params };
}
