import { once } from 'node:events';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ZipFile } from 'yazl';
import { IntegrationApp, zIntegrationSettings } from '../../../src/schemas/sync.ts';
import type { User } from '../../db/entities/index.ts';
import { everyRecord } from './changes.ts';
import { integrationOf, settingsOf } from './integrations.service.ts';
import { renderNote } from './templates.ts';

/** Zip output the export lets pile up before it waits for the reader (keeps memory flat). */
const BUFFERED_BYTES_MAX = 4 * 1024 * 1024;

/**
 * Everything the user keeps as one zip of Markdown files, each rendered with their Obsidian
 * templates (the defaults if they never set any): for people who use no plugin. Streams: a page
 * of notes is read, rendered and added, and the next waits until the zip's reader has taken
 * most of it, so memory stays flat however many notes there are. `signal` stops it (the reader left).
 */
export async function writeMarkdownExport(
  em: EntityManager,
  user: User,
  baseUrl: string,
  zip: ZipFile,
  signal?: AbortSignal,
): Promise<void> {
  const obsidian = settingsOf(await integrationOf(em, user, IntegrationApp.obsidian));
  // Everything: the Obsidian integration's filter and exclude ranges are about what it syncs.
  const everything = zIntegrationSettings.parse({
    templates: obsidian.templates,
    tagStyle: obsidian.tagStyle,
  });
  const context = { timeZone: user.timeZone, tagStyle: everything.tagStyle };
  const output = zip.outputStream;
  for await (const records of everyRecord(em, user, everything, baseUrl)) {
    for (const record of records) {
      const { fileName, markdown } = await renderNote(
        IntegrationApp.obsidian,
        everything.templates,
        record,
        context,
      );
      const folder = record.kind === 'daily' ? 'Daily notes' : 'Notes';
      zip.addBuffer(Buffer.from(markdown), `${folder}/${fileName}`, {
        mtime: new Date(record.updatedAt * 1000),
      });
    }
    signal?.throwIfAborted();
    while (output.readableLength > BUFFERED_BYTES_MAX) await once(output, 'data', { signal });
  }
  zip.end();
}
