import type { EntityManager } from '@mikro-orm/postgresql';
import TurndownService from 'turndown';
import { AppError } from '../../../src/errors.ts';
import { Page, PageContent, type User } from '../../db/entities/index.ts';
import { afterCursor, decodeCursor, NEWEST_FIRST, pageOf } from '../cursor.ts';

export async function getPage(em: EntityManager, user: User, id: string) {
  const page = await em.findOne(Page, { id, user: user.id });
  if (!page) throw new AppError('NOT_FOUND');
  const content = await em.findOne(PageContent, { page: page.id });
  return { page, content };
}

/** Newest first, keyset-paginated. */
export async function listPages(
  em: EntityManager,
  user: User,
  input: { limit: number; cursor?: string | null },
) {
  const rows = await em.find(
    Page,
    { user: user.id, trashedAt: null, ...afterCursor(decodeCursor(input.cursor)) },
    { orderBy: NEWEST_FIRST, limit: input.limit + 1 },
  );
  return pageOf(rows, input.limit);
}

const turndown = new TurndownService({
  headingStyle: 'atx',
  codeBlockStyle: 'fenced',
  bulletListMarker: '-',
});

export function safeFilename(title: string, extension: string): string {
  const printable = [...title].filter((c) => c >= ' ').join('');
  const base =
    printable
      .replace(/[\\/:*?"<>|]+/g, ' ')
      .trim()
      .slice(0, 80) || 'page';
  return `${base}.${extension}`;
}

/** A page as plain text or as a Markdown article, with its source link. */
export async function exportPage(
  em: EntityManager,
  user: User,
  input: { id: string; format: 'text' | 'markdown' },
) {
  const { page, content } = await getPage(em, user, input.id);
  if (input.format === 'text') {
    return {
      filename: safeFilename(page.title, 'txt'),
      mimeType: 'text/plain;charset=utf-8',
      content: `${page.title}\n${page.url}\n\n${content?.text ?? ''}\n`,
    };
  }
  const byline = [page.author, page.siteName].filter(Boolean).join(' · ');
  const body = content?.contentHtml ? turndown.turndown(content.contentHtml) : '';
  return {
    filename: safeFilename(page.title, 'md'),
    mimeType: 'text/markdown;charset=utf-8',
    content: `# ${page.title}\n\n${byline ? `${byline}\n\n` : ''}Source: <${page.url}>\n\n${body}\n`,
  };
}
