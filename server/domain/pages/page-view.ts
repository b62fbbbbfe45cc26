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
