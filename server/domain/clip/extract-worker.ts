// The body of each thread of the extraction pool (./extract-in-worker.ts): per message, one page's
// article is extracted and its body sanitised, so that neither runs on the clip worker's event loop.
import { parentPort } from 'node:worker_threads';
import { toStorableText } from '../../../src/rules/text.ts';
import { type ExtractedArticle, extractArticle } from './extract/index.ts';
import { sanitizeArticleHtml } from './sanitize.ts';

export type ExtractionRequest = { id: number; html: string; url: string };
export type ExtractionReply =
  | { id: number; started: true }
  | { id: number; ok: true; article: ExtractedArticle }
  | { id: number; ok: false };

parentPort?.on('message', ({ id, html, url }: ExtractionRequest) => {
  // Lets the pool start the job's clock only once the worker has loaded and begins work.
  parentPort?.postMessage({ id, started: true } satisfies ExtractionReply);
  let reply: ExtractionReply;
  try {
    const article = extractArticle(html, url);
    const contentHtml = toStorableText(sanitizeArticleHtml(article.contentHtml));
    reply = { id, ok: true, article: { ...article, contentHtml } };
  } catch {
    reply = { id, ok: false };
  }
  parentPort?.postMessage(reply);
});
