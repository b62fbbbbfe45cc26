// Worker thread body for ../extract-in-worker.ts: extracts one page per message.
import { parentPort } from 'node:worker_threads';
import { extractArticle } from './index.ts';

export type ExtractionRequest = { id: number; html: string; url: string };
export type ExtractionReply =
  | { id: number; started: true }
  | { id: number; ok: true; article: ReturnType<typeof extractArticle> }
  | { id: number; ok: false };

parentPort?.on('message', ({ id, html, url }: ExtractionRequest) => {
  // Lets the pool start the job's clock only once the worker has loaded and begins work.
  parentPort?.postMessage({ id, started: true } satisfies ExtractionReply);
  let reply: ExtractionReply;
  try {
    reply = { id, ok: true, article: extractArticle(html, url) };
  } catch {
    reply = { id, ok: false };
  }
  parentPort?.postMessage(reply);
});
