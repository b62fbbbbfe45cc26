import { EventEmitter, once } from 'node:events';
import { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ZipFile } from 'yazl';
import { ClipStatus } from '../../../src/enums.ts';
import { type ExportRecord, IntegrationApp } from '../../../src/schemas/sync.ts';
import type { User } from '../../db/entities/index.ts';
import { pgTextArray } from '../../db/pg-array.ts';
import type { ComputePool } from '../compute/compute-pool.ts';
import { everyRecord } from './changes.ts';
import { exportingEverything, savedSettings } from './integrations.service.ts';
import { renderNotes } from './templates/render.ts';

/** Files added but not yet taken by the zip writer before the export waits for it (keeps memory flat). */
const BACKLOG_MAX = 200;

/**
 * The web notes among `records` whose clip failed and that hold no highlight: nothing of theirs
 * is worth a file (the template would write an empty page).
 */
async function failedClips(em: EntityManager, user: User, records: ExportRecord[]): Promise<Set<string>> {
  const candidates = records.filter((r) => r.kind === 'page' && !r.highlights.length).map((r) => r.id);
  if (!candidates.length) return new Set();
  const rows = await em.execute<{ id: string }[]>(
    `select id from note where user_id = ? and id = any(?::text[]) and clip_status = ${ClipStatus.failed}`,
    [user.id, pgTextArray(candidates)],
  );
  return new Set(rows.map((row) => row.id));
}

/**
 * Everything the user keeps as one zip of Markdown files, each rendered with their Obsidian
 * templates (the defaults if they never set any): for people who use no plugin. A failed clip
 * without highlights is left out. Streams: a page
 * of notes is read, rendered and added, and the next waits while the zip writer (which goes at
 * its reader's pace) has a backlog, so memory stays flat however many notes there are. `signal` stops it (the reader left).
 */
export async function writeMarkdownExport(
  em: EntityManager,
  user: User,
  baseUrl: string,
  zip: ZipFile,
  compute: ComputePool,
  signal?: AbortSignal,
): Promise<void> {
  // Everything: the Obsidian integration's filter and exclude ranges are about what it syncs.
  const everything = exportingEverything(await savedSettings(em, user, IntegrationApp.obsidian));
  const context = { timeZone: user.timeZone, tagStyle: everything.tagStyle };
  // One budget for the whole export, spent page by page: other users' tasks take turns between pages.
  const budget = compute.budget(user.id, 'export');
  const taken = new EventEmitter();
  let backlog = 0;
  for await (const page of everyRecord(em, user, everything, baseUrl)) {
    const failed = await failedClips(em, user, page);
    const records = page.filter((record) => !failed.has(record.id));
    const rendered = await renderNotes(
      budget,
      IntegrationApp.obsidian,
      everything.templates,
      records,
      context,
    );
    for (const [i, record] of records.entries()) {
      const { fileName, markdown } = rendered[i]!;
      const folder = record.kind === 'daily' ? 'Daily notes' : 'Notes';
      // The writer keeps every entry (for the zip's directory) with the function that gave its
      // content, so the content is let go once taken: a buffer added whole would stay to the end.
      let content: string | null = markdown;
      backlog++;
      zip.addReadStreamLazy(`${folder}/${fileName}`, { mtime: new Date(record.updatedAt * 1000) }, (give) => {
        const text = content ?? '';
        content = null;
        backlog--;
        taken.emit('taken');
        give(null, Readable.from([Buffer.from(text)]));
      });
    }
    signal?.throwIfAborted();
    while (backlog > BACKLOG_MAX) await once(taken, 'taken', { signal });
  }
  zip.end();
}
