import { z } from 'zod';
import { AppError } from '../../../../src/errors.ts';
import { type ExportHighlight, zFlomoCredentials } from '../../../../src/schemas/sync.ts';
import { clock } from '../../../clock.ts';
import { delay } from '../../../lifecycle.ts';
import { renderHighlight } from '../templates/render.ts';
import {
  callApi,
  field,
  isSuccessStatus,
  PushCallError,
  type PushEnv,
  PushRefusedError,
} from './push-http.ts';
import { itemKeys, sha256 } from './push-records.ts';
import type { PushConnector, PushScope, PushTarget } from './push-target.ts';

// flomo (protocols/sync.md §3): POST {content} to the user's incoming webhook; success is
// `code: 0`. It has no edit or delete API, and its rate limits are not documented.

/** flomo is sent to gently: at most a post a second per user, from one run to the next too (one job per user and tool runs at a time). */
export const FLOMO_POST_INTERVAL_MS = 1000;

const zSavedFlomo = z.object({ webhookUrl: z.string() });
type SavedFlomo = z.infer<typeof zSavedFlomo>;

/** The webhook URL in canonical form if it is `<FLOMO_API_ORIGIN>/iwh/<id>/<secret>/`, else undefined. */
function flomoWebhookUrl(text: string, origin: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const path = url.pathname.match(/^\/iwh\/([\w-]+)\/([\w-]+)\/?$/);
  if (url.origin !== origin || !path || url.search || url.hash || url.username || url.password)
    return undefined;
  return `${origin}/iwh/${path[1]}/${path[2]}/`;
}

/**
 * What a memo is recorded with: the annotation it carried. flomo cannot edit a memo, so a
 * highlight is posted once, and again as a new memo only when its annotation is added or changed.
 */
function annotationHash(highlight: ExportHighlight): string {
  return sha256(highlight.annotation?.trim() ?? '');
}
const NO_ANNOTATION = sha256('');

async function postMemo(url: string, content: string, env: PushEnv): Promise<void> {
  const reply = await callApi('flomo', url, { method: 'POST', json: { content } }, env);
  const code = field(reply.body, 'code');
  const answered = isSuccessStatus(reply.status);
  // Without a code the answer could not be read, but it says the memo was posted: never post it again.
  if (answered && (code === 0 || code === undefined)) return;
  // An unknown or deleted webhook (or a lapsed PRO membership) is refused, by status or by code.
  const refused = answered || (reply.status >= 400 && reply.status <= 499 && reply.status !== 429);
  const detail = `HTTP ${reply.status}, code ${String(code)}`;
  throw refused ? new PushRefusedError('flomo', detail) : new PushCallError('flomo', detail);
}

/** Waits until `intervalMs` after the previous post (the last recorded one, for the first post of a run). */
function pacer(intervalMs: number, records: PushScope['records']): () => Promise<void> {
  let last: number | undefined;
  return async () => {
    last ??= await records.lastPushedAt();
    await delay(last + intervalMs - clock.now().getTime());
    last = clock.now().getTime();
  };
}

function openFlomo(credentials: SavedFlomo, scope: PushScope): PushTarget {
  const pace = pacer(FLOMO_POST_INTERVAL_MS, scope.records);
  return {
    async pushNote(record) {
      const sent = await scope.records.withPrefix(itemKeys.highlightsOf(record.id));
      let count = 0;
      for (const highlight of record.highlights) {
        const key = itemKeys.highlight(record.id, highlight.id);
        const hash = annotationHash(highlight);
        const before = sent.get(key)?.hash;
        if (before === hash) continue;
        // A removed annotation is no reason for another memo: only remember it is gone.
        if (before !== undefined && hash === NO_ANNOTATION) {
          await scope.records.put(key, { remoteId: null, hash });
          continue;
        }
        const content = await renderHighlight(
          scope.budget,
          'flomo',
          scope.templates,
          record,
          highlight,
          scope.render,
        );
        await pace();
        await postMemo(credentials.webhookUrl, content, scope.env);
        await scope.records.put(key, { remoteId: null, hash });
        count++;
      }
      return count;
    },
    // A memo cannot be taken back; the records stay, so a note brought back is not posted again.
    async removeNote() {
      return 0;
    },
  };
}

export const flomo: PushConnector<SavedFlomo> = {
  saved: zSavedFlomo,
  // Nothing is posted to check the URL: a test memo would land in the user's flomo.
  async connect(input, env) {
    const { webhookUrl } = zFlomoCredentials.parse(input);
    const url = flomoWebhookUrl(webhookUrl, env.flomoOrigin);
    if (!url) throw new AppError('BAD_REQUEST', 'errors.flomoUrlInvalid');
    return { webhookUrl: url };
  },
  // The account's part of the address, not its secret: a reset webhook of the same account is
  // the same place, so reconnecting after a revoked one sends nothing twice.
  destination: (credentials) => `flomo ${new URL(credentials.webhookUrl).pathname.split('/')[2] ?? ''}`,
  open: openFlomo,
};
