import express, { type ErrorRequestHandler, type Request, type Response, type Router } from 'express';
import {
  type ExportRecord,
  type IntegrationSettings,
  type SyncDownloadResponse,
  type SyncedNote,
  type SyncInitResponse,
  zSyncAckRequest,
  zSyncClientId,
  zSyncDownloadRequest,
  zSyncInitRequest,
  zSyncNoteActionRequest,
  zSyncTokenRequest,
} from '../../src/schemas/sync.ts';
import type { AppDeps } from '../deps.ts';
import {
  ackPull,
  archiveNote,
  checkCursor,
  holdLease,
  pollDeviceToken,
  pullBatch,
  pullNotes,
  startPull,
  trashNote,
} from '../domain/sync/pull.service.ts';
import { renderNotes } from '../domain/sync/templates/render.ts';
import { publicOrigin } from '../web/public-origin.ts';
import { type SyncCaller, syncCaller } from './sync-auth.ts';
import {
  DEVICE_EXPIRED,
  DEVICE_PENDING,
  failureMessage,
  NO_SUCH_CALL,
  type SyncFailure,
  syncFailureOf,
} from './sync-errors.ts';
import { syncCors, syncJsonBody } from './sync-http.ts';

// Margin's own pull API, /api/sync/v1 (src/schemas/sync.ts has every shape): JSON POSTs with
// `Authorization: Bearer <token>`, errors as HTTP status + `{ error: { code, message } }`.

function sendFailure(req: Request, res: Response, failure: SyncFailure): void {
  const message = failureMessage(req, failure, res.locals.language);
  res.status(failure.status).json({ error: { code: failure.code, message } });
}

/** The body's client id, if it is one, for the token's "last used by". */
function clientIdOf(body: unknown): string | null {
  return zSyncClientId.safeParse((body as { clientId?: unknown } | undefined)?.clientId).data ?? null;
}

/** The records rendered with the integration's templates, on one request's budget. */
async function syncedNotes(
  deps: AppDeps,
  caller: SyncCaller,
  settings: IntegrationSettings,
  records: ExportRecord[],
): Promise<SyncedNote[]> {
  const context = { timeZone: caller.user.timeZone, tagStyle: settings.tagStyle };
  const budget = deps.compute.budget(caller.user.id, 'request');
  const rendered = await renderNotes(budget, caller.app, settings.templates, records, context);
  return records.map((record, i) => {
    const { fileName, markdown } = rendered[i]!;
    return { id: record.id, fileName, markdown, updatedAt: record.updatedAt, record };
  });
}

export function v1Routes(deps: AppDeps): Router {
  const router = express.Router();
  router.use(syncCors, syncJsonBody());

  /** Authenticates the caller on a fresh EntityManager (one per request). */
  const begin = async (req: Request, res: Response) => {
    const em = deps.orm.em.fork();
    const caller = await syncCaller(em, req, res, { client: clientIdOf(req.body) });
    return { em, caller };
  };

  router.post('/token', async (req, res) => {
    const input = zSyncTokenRequest.parse(req.body);
    const result = await pollDeviceToken(deps, deps.orm.em.fork(), { ip: req.ip ?? '', ...input });
    if (result.state === 'token') res.json({ token: result.token });
    else sendFailure(req, res, result.state === 'pending' ? DEVICE_PENDING : DEVICE_EXPIRED);
  });

  router.post('/init', async (req, res) => {
    const { em, caller } = await begin(req, res);
    const input = zSyncInitRequest.parse(req.body);
    const start = await startPull(deps, em, caller, input);
    const body: SyncInitResponse = {
      app: caller.app,
      cursor: start.cursor,
      totalNotes: start.totalNotes,
      settings: { folder: start.settings.folder, writeStyle: start.settings.writeStyle },
    };
    res.json(body);
  });

  router.post('/download', async (req, res) => {
    const { em, caller } = await begin(req, res);
    const input = zSyncDownloadRequest.parse(req.body);
    await checkCursor(em, caller, input.cursor);
    const lease = await holdLease(em, caller, input.clientId);
    const baseUrl = publicOrigin(deps.config, req);
    const batch = await pullBatch(deps, em, caller, lease, { cursor: input.cursor, baseUrl });
    const inBatch = new Set([...batch.records.map((r) => r.id), ...batch.deleted]);
    const asked = [...new Set(input.noteIds)].filter((id) => !inBatch.has(id));
    const again = asked.length ? await pullNotes(em, caller, lease, { noteIds: asked, baseUrl }) : [];
    const found = new Set(again.map((r) => r.id));
    const notes = await syncedNotes(deps, caller, lease.settings, [...batch.records, ...again]);
    const body: SyncDownloadResponse = {
      notes,
      // A note asked for by id that is no longer exported is gone as far as the client is concerned.
      deleted: [...batch.deleted, ...asked.filter((id) => !found.has(id))],
      cursor: batch.cursor,
      hasMore: batch.hasMore,
    };
    res.json(body);
  });

  router.post('/ack', async (req, res) => {
    const { em, caller } = await begin(req, res);
    const input = zSyncAckRequest.parse(req.body);
    await ackPull(deps, em, caller, input);
    res.json({ ok: true });
  });

  router.post('/archive', async (req, res) => {
    const { em, caller } = await begin(req, res);
    await archiveNote(deps, em, caller, zSyncNoteActionRequest.parse(req.body).noteId);
    res.json({ ok: true });
  });

  router.post('/delete', async (req, res) => {
    const { em, caller } = await begin(req, res);
    await trashNote(deps, em, caller, zSyncNoteActionRequest.parse(req.body).noteId);
    res.json({ ok: true });
  });

  router.use((req, res) => sendFailure(req, res, NO_SUCH_CALL));
  const errors: ErrorRequestHandler = (err, req, res, _next) => sendFailure(req, res, syncFailureOf(err));
  router.use(errors);
  return router;
}
