import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../../src/errors.ts';
import { APP_TEMPLATES, type IntegrationApp, type Templates } from '../../../src/schemas/sync.ts';
import type { User } from '../../db/entities/index.ts';
import type { ComputePool } from '../compute/compute-pool.ts';
import { exportRecords } from './export-records.ts';
import { exportingEverything, savedSettings } from './integrations.service.ts';
import { checkTemplates, renderHighlights, renderNote, SAMPLE_RECORDS } from './templates/render.ts';

/** The note a preview shows when none is named: the user's latest with highlights, else the latest. */
async function latestNoteId(em: EntityManager, user: User): Promise<string | null> {
  const [row] = await em.execute<{ id: string }[]>(
    `select id from note where user_id = ? and trashed_at is null
     order by (highlight_count > 0) desc, created_at desc limit 1`,
    [user.id],
  );
  return row?.id ?? null;
}

/**
 * The Markdown an integration writes for one real note of the user's (or a sample when they
 * have none), with the saved templates or unsaved ones being edited. A template that fails is
 * named in the error, as when saving.
 */
export async function previewNote(
  em: EntityManager,
  user: User,
  input: { app: IntegrationApp; templates?: Templates; noteId?: string },
  baseUrl: string,
  compute: ComputePool,
) {
  const settings = await savedSettings(em, user, input.app);
  const templates = input.templates ?? settings.templates;
  const budget = compute.budget(user.id, 'request');
  const unknown = await checkTemplates(budget, input.app, templates);
  const noteId = input.noteId ?? (await latestNoteId(em, user));
  // The preview shows any note the user names, whatever the integration's filter.
  const [own] = noteId ? await exportRecords(em, user, exportingEverything(settings), [noteId], baseUrl) : [];
  if (input.noteId && !own) throw new AppError('NOT_FOUND');
  const record = own ?? SAMPLE_RECORDS[0];
  if (!record) throw new AppError('INTERNAL');
  const context = { timeZone: user.timeZone, tagStyle: settings.tagStyle };
  const shown = {
    noteId: own?.id ?? null,
    noteTitle: record.title,
    unknownVariables: [...new Set(unknown.flatMap((u) => u.names))],
  };
  if (APP_TEMPLATES[input.app].includes('note')) {
    const { fileName, markdown } = await renderNote(budget, input.app, templates, record, context);
    return { ...shown, fileName, markdown };
  }
  // flomo and WorkFlowy receive highlights one by one: each as it would be sent.
  const texts = await renderHighlights(budget, input.app, templates, record, context);
  return { ...shown, fileName: '', markdown: texts.join('\n\n---\n\n') };
}
