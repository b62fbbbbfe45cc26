import type { EntityManager } from '@mikro-orm/postgresql';
import TurndownService from 'turndown';
import { AppError } from '../../../src/errors.ts';
import { Page, PageContent, type User } from '../../db/entities/index.ts';

export async function getPage(em: EntityManager, user: User, id: string) {
  const page = await em.findOne(Page, { id, user: user.id });
  if (!page) throw new AppError('NOT_FOUND');
  const content = await em.findOne(PageContent, { page: page.id });
  return { page, content };
}

interface Cursor {
  createdAt: Date;
  id: string;
}

function encodeCursor(page: Page): string {
  return Buffer.from(`${page.createdAt.toISOString()}|${page.id}`).toString('base64url');
}

function decodeCursor(cursor: string | null | undefined): Cursor | null {
  if (!cursor) return null;
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const createdAt = new Date(at ?? '');
  if (!id || Number.isNaN(createdAt.getTime())) throw new AppError('BAD_REQUEST', 'errors.invalidInput');
  return { createdAt, id };
}

/** Newest first, keyset-paginated on (created_at, id) so deep pages cost the same as the first. */
export async function listPages(
  em: EntityManager,
  user: User,
  input: { limit: number; cursor?: string | null },
) {
  const after = decodeCursor(input.cursor);
  const items = await em.find(
    Page,
    {
      user: user.id,
      trashedAt: null,
      ...(after && {
        $or: [{ createdAt: { $lt: after.createdAt } }, { createdAt: after.createdAt, id: { $lt: after.id } }],
      }),
    },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit: input.limit + 1 },
  );
  const more = items.length > input.limit;
  const pageItems = more ? items.slice(0, input.limit) : items;
  const last = pageItems.at(-1);
  return { items: pageItems, nextCursor: more && last ? encodeCursor(last) : null };
}

const turndown = new TurndownService({
  headingStyle: 'atx',
  codeBlockStyle: 'fenced',
  bulletListMarker: '-',
});

function safeFilename(title: string, extension: string): string {
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
