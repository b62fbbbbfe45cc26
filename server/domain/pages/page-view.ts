import type { PageDetail, PageSummary } from '../../../src/schemas/notes.ts';
import type { Page, PageContent } from '../../db/entities/index.ts';

/** A page as clients see it (entities never leave the server raw). */
export function toPageSummary(page: Page): PageSummary {
  return {
    id: page.id,
    url: page.url,
    title: page.title,
    siteName: page.siteName ?? null,
    author: page.author ?? null,
    publishedAt: page.publishedAt ?? null,
    leadImageUrl: page.leadImageUrl ?? null,
    excerpt: page.excerpt,
    lang: page.lang ?? null,
    wordCount: page.wordCount,
    flow: page.flow,
    tags: page.tags,
    clipStatus: page.clipStatus,
    clipError: page.clipError ?? null,
    highlightCount: page.highlightCount,
    createdAt: page.createdAt,
    updatedAt: page.updatedAt,
  };
}

export function toPageDetail(page: Page, content: PageContent | null): PageDetail {
  return { ...toPageSummary(page), contentHtml: content?.contentHtml ?? '', text: content?.text ?? '' };
}

const toDate = (v: unknown): Date | null => (v == null ? null : v instanceof Date ? v : new Date(String(v)));

/** A raw `page` row (snake_case, as list queries select it) straight to the client shape. */
export function rowToPageSummary(row: Record<string, unknown>): PageSummary {
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
