import type { EntityManager } from '@mikro-orm/postgresql';
import express, { type ErrorRequestHandler, type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import { AppError } from '../../src/errors.ts';
import { zNoteId } from '../../src/schemas/notes.ts';
import { type PullApp, pullAppOfServiceId, zSyncClientId, zSyncCursor } from '../../src/schemas/sync.ts';
import type { AppDeps } from '../deps.ts';
import {
  ackPull,
  archiveNote,
  checkCursor,
  holdLease,
  type Lease,
  pollDeviceToken,
  pullBatch,
  pullNotes,
  startPull,
  trashNote,
} from '../domain/sync/pull.service.ts';
import { syncCursorInvalid } from '../domain/sync/sync-cursor.ts';
import { publicOrigin } from '../web/public-origin.ts';
import { type EntryStyle, exportConfig, noteEntry } from './note-entry.ts';
import { noteIdOfSeedX } from './seed-note-id.ts';
import { type SyncCaller, syncCaller } from './sync-auth.ts';
import {
  DEVICE_EXPIRED,
  DEVICE_PENDING,
  failureMessage,
  invalidToken,
  NO_SUCH_CALL,
  type SyncErrorCode,
  type SyncFailure,
  syncFailureOf,
} from './sync-errors.ts';
import { syncCors, syncJsonBody } from './sync-http.ts';

// The seed product's plugin protocol (docs/SEED-PROTOCOL.md), on the same
// engine as /api/sync/v1: `POST /apix/openapi/wucai/sync/{init,download,ack,archive,delete}` and
// the device flow's `POST /page/auth/openapi/gettoken`. Answers are `{ code, message, data }`,
// success only with code 1, and HTTP 200 even for a refusal: the plugins read the code only from
// a 2xx answer (10000 makes them forget their token). Two refusals keep their HTTP status, as
// the plugins expect: 409 while another client holds the sync, and 500.

/**
 * The envelope's codes. 1 and 10000 are the seed's; the seed documents no others, so the rest
 * are Margin's: 2xxxx the device flow (gettoken polls again on any code but 1), 4xxxx the
 * request, 50000 the server.
 */
const SEED_CODE: Readonly<Record<SyncErrorCode | 'ok', number>> = {
  ok: 1,
  invalid_token: 10000,
  pending: 20001,
  expired: 20002,
  invalid_input: 40000,
  cursor_invalid: 40001,
  not_found: 40400,
  sync_running: 40900,
  sync_disabled: 40300,
  payload_too_large: 41300,
  template_failed: 42200,
  too_many_requests: 42900,
  internal: 50000,
};

/** What the plugins' init waits on (PENDING: poll again in ~3 s) or downloads on (SYNCING). */
const TaskStatus = { pending: 'PENDING', syncing: 'SYNCING' } as const;

/**
 * The cursor that means "from the beginning". The plugins keep their own cursor when init sends
 * an empty one, so after a run the server asks for everything again (run once, a reconnection)
 * with this instead; sent back, it reads as no cursor.
 */
const START_CURSOR = 'start';

const CLIENT_HEADER: Record<PullApp, string> = {
  obsidian: 'Obsidian-Client',
  logseq: 'Logseq-Client',
  siyuan: 'Siyuan-Client',
};

/** At most this many batches of removals only are skipped in one download (see nextBatch). */
const SKIPPED_BATCHES_MAX = 20;

const short = z.string().max(64);
/** `?appid=20&ep=<client>&version=<v>&reqtime=<epoch s>`: accepted, not needed. */
const zSeedQuery = z.object({ appid: short, ep: short, version: short, reqtime: short }).partial();
/** Every call's body adds the plugin's version and its tool (7 Obsidian, 11 Logseq, 34 SiYuan). */
const zSeedBody = z.object({ serviceId: z.number().int(), v: z.union([z.number(), short]).optional() });
/** An empty or absent cursor is the beginning (a plugin's first sync, or after its folder was deleted). */
const zSeedCursor = zSyncCursor.nullish().transform((c) => (c && c !== START_CURSOR ? c : null));
const zSeedInit = zSeedBody.extend({ noteDirDeleted: z.boolean().default(false), lastCursor2: zSeedCursor });
/** A note as the plugins name it: its noteIdX (or, from a plugin that synced before noteIdX was encoded, its id). */
const zSeedNoteId = z.string().max(128).transform(noteIdOfSeedX).pipe(zNoteId);
const zSeedDownload = zSeedBody.extend({
  lastCursor2: zSeedCursor,
  noteIdXs: z.array(zSeedNoteId).max(6).default([]),
  checkUpdate: z.boolean().default(false),
});
const zSeedAck = zSeedBody.extend({ lastCursor2: zSeedCursor });
const zSeedNoteAction = zSeedBody.extend({ noteid: zSeedNoteId });
const zSeedGetToken = z.object({ did: zSyncClientId });

const httpStatus = (failure: SyncFailure) =>
  failure.code === 'sync_running' || failure.code === 'internal' ? failure.status : 200;

function sendFailure(req: Request, res: Response, failure: SyncFailure, status = httpStatus(failure)): void {
  const message = failureMessage(req, failure, res.locals.language);
  res.status(status).json({ code: SEED_CODE[failure.code], message, data: null });
}

function sendData(res: Response, data: unknown): void {
  res.json({ code: SEED_CODE.ok, message: 'ok', data });
}

/**
 * init's `lastCursor2`: the integration's (unless the plugin's folder was deleted); when it has
 * none or the folder is gone, "from the start" only after a run
 * was acknowledged. Before that, '' leaves the plugin its own cursor: the seed's Logseq plugin
 * acknowledges only when an empty answer moves the cursor, which an exhausted export never
 * does, so its integration may never get one.
 */
function initCursor(
  integration: { cursor?: string | null; lastRunAt?: Date | null },
  folderDeleted: boolean,
): string {
  if (integration.cursor && !folderDeleted) return integration.cursor;
  return integration.lastRunAt ? START_CURSOR : '';
}

interface SeedCall {
  em: EntityManager;
  caller: SyncCaller;
  /** The plugin's `<Tool>-Client` header: the lease is held in its name. */
  clientId: string | null;
}

export function seedRoutes(deps: AppDeps): Router {
  /** The token must have been made for the tool the body names. */
  const begin = async (req: Request, res: Response): Promise<SeedCall> => {
    zSeedQuery.parse(req.query);
    const app = pullAppOfServiceId(zSeedBody.parse(req.body).serviceId);
    if (!app) throw invalidToken();
    const clientId = zSyncClientId.safeParse(req.get(CLIENT_HEADER[app])).data ?? null;
    const em = deps.orm.em.fork();
    return { em, caller: await syncCaller(em, req, res, { client: clientId, expectedApp: app }), clientId };
  };
  const clientOf = (call: SeedCall): string => {
    if (!call.clientId) throw new AppError('BAD_REQUEST', 'errors.syncClientInvalid');
    return call.clientId;
  };

  /**
   * The next batch with notes in it. The plugins stop at the first answer without notes and
   * the seed protocol has no removals, so a batch holding only removals (trashed or filtered-out
   * notes) is passed over: an empty list then means the export is exhausted, and its cursor is
   * the one sent. Check pass (`checkUpdate: true`) and content pass go alike, with full
   * entries: the seed's Obsidian plugin writes the notes of its check pass to files and starts
   * the content pass from the cursor the check pass reached, so an entry without its
   * highlights would be written as a note without them.
   */
  const nextBatch = async (call: SeedCall, lease: Lease, cursor: string | null, baseUrl: string) => {
    for (let skipped = 0; ; skipped++) {
      const batch = await pullBatch(deps, call.em, call.caller, lease, { cursor, baseUrl });
      const last = !batch.hasMore || batch.cursor === cursor || skipped >= SKIPPED_BATCHES_MAX;
      if (batch.records.length || last) return batch;
      cursor = batch.cursor;
    }
  };

  const sync = express.Router();

  sync.post('/init', async (req, res) => {
    const call = await begin(req, res);
    const input = zSeedInit.parse(req.body);
    const start = await startPull(deps, call.em, call.caller, {
      clientId: clientOf(call),
      fromStart: input.noteDirDeleted,
    });
    sendData(res, {
      // A note still being clipped would go out without its page's title and text: wait for it.
      taskStatus: start.clipping ? TaskStatus.pending : TaskStatus.syncing,
      lastCursor2: initCursor(start.integration, input.noteDirDeleted),
      exportConfig: exportConfig(call.caller.app, start.settings),
      totalNotes: start.totalNotes,
      notesExported: start.totalNotes - start.clipping,
      downloadEP: '',
    });
  });

  sync.post('/download', async (req, res) => {
    const call = await begin(req, res);
    const input = zSeedDownload.parse(req.body);
    await checkCursor(call.em, call.caller, input.lastCursor2);
    const lease = await holdLease(call.em, call.caller, clientOf(call));
    const baseUrl = publicOrigin(deps.config, req);
    const style: EntryStyle = { app: call.caller.app, tagStyle: lease.settings.tagStyle };
    if (input.noteIdXs.length) {
      // Notes the plugin failed to write, asked for again: the cursor stays where it was.
      const records = await pullNotes(call.em, call.caller, lease, { noteIds: input.noteIdXs, baseUrl });
      sendData(res, { notes: records.map((r) => noteEntry(r, style)), lastCursor2: input.lastCursor2 ?? '' });
      return;
    }
    const batch = await nextBatch(call, lease, input.lastCursor2, baseUrl);
    sendData(res, { notes: batch.records.map((r) => noteEntry(r, style)), lastCursor2: batch.cursor });
  });

  sync.post('/ack', async (req, res) => {
    const call = await begin(req, res);
    const { lastCursor2 } = zSeedAck.parse(req.body);
    if (!lastCursor2) throw syncCursorInvalid();
    await ackPull(deps, call.em, call.caller, { clientId: clientOf(call), cursor: lastCursor2 });
    sendData(res, null);
  });

  sync.post('/archive', async (req, res) => {
    const call = await begin(req, res);
    await archiveNote(deps, call.em, call.caller, zSeedNoteAction.parse(req.body).noteid);
    sendData(res, null);
  });

  sync.post('/delete', async (req, res) => {
    const call = await begin(req, res);
    await trashNote(deps, call.em, call.caller, zSeedNoteAction.parse(req.body).noteid);
    sendData(res, null);
  });

  const auth = express.Router();

  auth.post('/gettoken', async (req, res) => {
    zSeedQuery.parse(req.query);
    const { did } = zSeedGetToken.parse(req.body);
    const result = await pollDeviceToken(deps, deps.orm.em.fork(), { ip: req.ip ?? '', clientId: did });
    if (result.state === 'token') sendData(res, { accessToken: result.token });
    else sendFailure(req, res, result.state === 'pending' ? DEVICE_PENDING : DEVICE_EXPIRED);
  });

  const notFound = (req: Request, res: Response) => sendFailure(req, res, NO_SUCH_CALL, NO_SUCH_CALL.status);
  const errors: ErrorRequestHandler = (err, req, res, _next) => sendFailure(req, res, syncFailureOf(err));
  const router = express.Router();
  router.use('/apix/openapi/wucai/sync', syncCors, syncJsonBody(), sync, notFound, errors);
  router.use('/page/auth/openapi', syncCors, syncJsonBody(), auth, notFound, errors);
  return router;
}
