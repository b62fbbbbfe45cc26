import type { EntityManager } from '@mikro-orm/postgresql';
import { NoteKind } from '../../../src/enums.ts';
import { AppError } from '../../../src/errors.ts';
import { Note, NoteContent, type User } from '../../db/entities/index.ts';
import type { ComputePool } from '../compute/compute-pool.ts';

/** One of the user's web notes, without its content (a daily note is read through the daily service). */
export async function ownNote(em: EntityManager, user: User, id: string): Promise<Note> {
  const note = await em.findOne(Note, { id, user: user.id, kind: NoteKind.web });
  if (!note) throw new AppError('NOT_FOUND');
  return note;
}

/** One of the user's web notes with its content. */
export async function getNote(em: EntityManager, user: User, id: string) {
  const note = await ownNote(em, user, id);
  const content = await em.findOne(NoteContent, { note: note.id });
  return { note, content };
}

function safeFilename(title: string, extension: string): string {
  const printable = [...title].filter((c) => c >= ' ').join('');
  const base =
    printable
      .replace(/[\\/:*?"<>|]+/g, ' ')
      .trim()
      .slice(0, 80) || 'note';
  return `${base}.${extension}`;
}

export type ExportFormat = 'markdown' | 'text';

/** A download named after `title`, typed for its format. */
export function exportFile(format: ExportFormat, title: string, content: string) {
  const markdown = format === 'markdown';
  return {
    filename: safeFilename(title, markdown ? 'md' : 'txt'),
    mimeType: markdown ? 'text/markdown;charset=utf-8' : 'text/plain;charset=utf-8',
    content,
  };
}

/** A note as plain text or as a Markdown article, with its source link. */
export async function exportNote(
  em: EntityManager,
  user: User,
  input: { id: string; format: ExportFormat },
  compute: ComputePool,
) {
  const { note, content } = await getNote(em, user, input.id);
  if (input.format === 'text') {
    return exportFile('text', note.title, `${note.title}\n${note.url}\n\n${content?.text ?? ''}\n`);
  }
  const byline = [note.author, note.siteName].filter(Boolean).join(' · ');
  const html = content?.contentHtml;
  const body = html ? await compute.budget(user.id, 'request').run({ name: 'htmlToMarkdown', html }) : '';
  return exportFile(
    'markdown',
    note.title,
    `# ${note.title}\n\n${byline ? `${byline}\n\n` : ''}Source: <${note.url}>\n\n${body}\n`,
  );
}
