import { z } from 'zod';
import { AppError } from '../../../../src/errors.ts';
import { zWorkflowyCredentials } from '../../../../src/schemas/sync.ts';
import { renderHighlight, workflowyNode } from '../templates/render.ts';
import {
  type ApiReply,
  callApi,
  field,
  isAuthStatus,
  isSuccessStatus,
  PushCallError,
  type PushEnv,
  PushRefusedError,
  PushRetryLaterError,
} from './push-http.ts';
import { itemKeys, type PushRecord, sha256 } from './push-records.ts';
import type { PushConnector, PushScope, PushTarget } from './push-target.ts';

// WorkFlowy's REST API (protocols/sync.md §4): `Authorization: Bearer <key>`, one node per
// highlight under the user's parent, updated in place and deleted with the highlight. Over the
// rate limit it answers 429 `{ error, retry_after }` (seconds).

const zSavedWorkflowy = z.object({ apiKey: z.string(), parentId: z.string() });
type SavedWorkflowy = z.infer<typeof zSavedWorkflowy>;

type WorkflowyNode = { name: string; note: string };

/** What a node is recorded with: a hash of its content, by which it is also found again. */
const nodeHash = (node: WorkflowyNode) => sha256(JSON.stringify([node.name, node.note]));

/** A 429's wait, bounded: a missing or odd `retry_after` waits a minute (the limits are per minute). */
function retryAfterMs(body: unknown): number {
  const seconds = Number(field(body, 'retry_after'));
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 3600) * 1000 : 60_000;
}

function client(credentials: SavedWorkflowy, env: PushEnv) {
  const call = async (
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    json?: Record<string, unknown>,
  ): Promise<ApiReply> => {
    const reply = await callApi(
      'workflowy',
      `${env.workflowyOrigin}/api/v1${path}`,
      { method, headers: { authorization: `Bearer ${credentials.apiKey}` }, json },
      env,
    );
    if (reply.status === 429) throw new PushRetryLaterError('workflowy', retryAfterMs(reply.body));
    if (isAuthStatus(reply.status)) throw new PushRefusedError('workflowy', `HTTP ${reply.status}`);
    return reply;
  };
  const failed = (what: string, reply: ApiReply) =>
    new PushCallError('workflowy', `${what}: HTTP ${reply.status}`);
  const ok = (reply: ApiReply) => isSuccessStatus(reply.status);
  const children = async (): Promise<unknown[]> => {
    const reply = await call('GET', `/nodes?parent_id=${encodeURIComponent(credentials.parentId)}`);
    if (!ok(reply)) throw failed('list', reply);
    const nodes = field(reply.body, 'nodes');
    return Array.isArray(nodes) ? nodes : [];
  };

  return {
    /** Lists the parent's children: a harmless call that proves the key (and the parent). */
    async check(): Promise<void> {
      await children();
    },
    /** The new node's id; null when WorkFlowy answered success in words Margin cannot read. */
    async create(node: WorkflowyNode): Promise<string | null> {
      const reply = await call('POST', '/nodes', {
        parent_id: credentials.parentId,
        ...node,
        position: 'bottom',
      });
      if (!ok(reply)) throw failed('create', reply);
      const id = field(reply.body, 'item_id') ?? field(reply.body, 'id');
      return typeof id === 'string' && id ? id : null;
    },
    /** The newest of the parent's children whose content has `hash`, if there is one. */
    async find(hash: string): Promise<string | null> {
      const found = (await children()).findLast((child) => {
        const [name, note] = [field(child, 'name'), field(child, 'note') ?? ''];
        return typeof name === 'string' && typeof note === 'string' && nodeHash({ name, note }) === hash;
      });
      const id = field(found, 'id');
      return typeof id === 'string' && id ? id : null;
    },
    /** False when the node is gone (the user deleted it in WorkFlowy). */
    async update(id: string, node: WorkflowyNode): Promise<boolean> {
      const reply = await call('POST', `/nodes/${encodeURIComponent(id)}`, node);
      if (reply.status === 404) return false;
      if (!ok(reply)) throw failed('update', reply);
      return true;
    },
    async remove(id: string): Promise<void> {
      const reply = await call('DELETE', `/nodes/${encodeURIComponent(id)}`);
      if (!ok(reply) && reply.status !== 404) throw failed('delete', reply);
    },
  };
}

function openWorkflowy(credentials: SavedWorkflowy, scope: PushScope): PushTarget {
  const api = client(credentials, scope.env);
  const { records } = scope;

  /** A recorded node's id: a record without one was made, but its answer could not be read. */
  const nodeOf = (record: PushRecord) => record.remoteId ?? api.find(record.hash);

  async function removeAll(keys: Iterable<[string, PushRecord]>): Promise<number> {
    let count = 0;
    for (const [key, record] of keys) {
      const id = await nodeOf(record);
      if (id) await api.remove(id);
      await records.remove(key);
      count++;
    }
    return count;
  }

  return {
    async pushNote(record) {
      const sent = await records.withPrefix(itemKeys.highlightsOf(record.id));
      let count = 0;
      for (const highlight of record.highlights) {
        const key = itemKeys.highlight(record.id, highlight.id);
        const node = workflowyNode(
          await renderHighlight(scope.budget, 'workflowy', scope.templates, record, highlight, scope.render),
        );
        const hash = nodeHash(node);
        const before = sent.get(key);
        sent.delete(key);
        if (before?.hash === hash) continue;
        const known = before ? await nodeOf(before) : null;
        let remoteId = known && (await api.update(known, node)) ? known : await api.create(node);
        if (!remoteId) {
          // Made, but the answer did not say its id: recorded first, so a retry never makes it again.
          await records.put(key, { remoteId: null, hash });
          remoteId = await api.find(hash);
        }
        await records.put(key, { remoteId, hash });
        count++;
      }
      // What is left was sent for highlights the note no longer has.
      return count + (await removeAll(sent));
    },
    async removeNote(noteId) {
      return removeAll(await records.withPrefix(itemKeys.highlightsOf(noteId)));
    },
  };
}

export const workflowy: PushConnector<SavedWorkflowy> = {
  saved: zSavedWorkflowy,
  async connect(input, env) {
    const credentials = zWorkflowyCredentials.parse(input);
    try {
      await client(credentials, env).check();
    } catch (error) {
      if (error instanceof PushRefusedError) throw new AppError('BAD_REQUEST', 'errors.workflowyKeyInvalid');
      if (error instanceof PushCallError || error instanceof PushRetryLaterError) {
        throw new AppError('BAD_REQUEST', 'errors.workflowyUnreachable');
      }
      throw error;
    }
    return credentials;
  },
  // Where nodes go, not the key: a new key after a revoked one is the same place, so nothing is
  // sent twice (a node missing in another account is made again when its highlight changes).
  destination: (credentials) => `workflowy ${credentials.parentId}`,
  open: openWorkflowy,
};
