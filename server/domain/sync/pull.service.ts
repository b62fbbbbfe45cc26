import type { EntityManager } from '@mikro-orm/postgresql';
import { ClipStatus, Flow } from '../../../src/enums.ts';
import type { ExportRecord, IntegrationSettings, PullApp } from '../../../src/schemas/sync.ts';
import { clock } from '../../clock.ts';
import type { Integration, User } from '../../db/entities/index.ts';
import type { AppDeps } from '../../deps.ts';
import { setFlow, trashNotes } from '../notes/organise.service.ts';
import { enforceLimits, LIMITS } from '../rate-limit.ts';
import { type ExportBatch, exportBatch, syncPositionOf } from './changes.ts';
import { exportRecords } from './export-records.ts';
import { acknowledgeSync, integrationOf, settingsOf, takeSyncLease } from './integrations.service.ts';
import { exportedNotesCondition } from './note-filter.ts';
import { type DeviceRedemption, redeemDeviceTicket } from './tokens.ts';

// The pull flow both sync fronts (Margin's /api/sync/v1 and the seed product's paths) speak:
// init → download batches → ack, one client at a time per integration (the lease).

/** Who pulls: the sync token's user and the note tool the token was made for. */
export interface SyncCaller {
  user: User;
  app: PullApp;
}

/** A note whose clip was queued or started this recently is still worth waiting for. */
export const CLIP_WAIT_MS = 2 * 60_000;

/** How long the count of notes sent in a run waits for its ack. */
const SENT_COUNT_TTL_S = 24 * 3600;

export interface Lease {
  integration: Integration;
  settings: IntegrationSettings;
}

interface PullStart extends Lease {
  /** The cursor last acknowledged; null when everything is to be sent. */
  cursor: string | null;
  /** Notes the integration exports. */
  totalNotes: number;
  /** Of those, notes whose clip is still queued or running and was started in the last CLIP_WAIT_MS. */
  clipping: number;
}

const sentKey = (deps: AppDeps, integrationId: number) =>
  `${deps.config.redisPrefix}:sync:sent:${integrationId}`;

/** Takes (or renews) the integration's lease for `clientId`; CONFLICT while another client holds it. */
export async function holdLease(em: EntityManager, caller: SyncCaller, clientId: string): Promise<Lease> {
  const integration = await takeSyncLease(em, caller.user, caller.app, clientId);
  return { integration, settings: settingsOf(integration) };
}

async function exportCounts(em: EntityManager, caller: SyncCaller, settings: IntegrationSettings) {
  const exported = exportedNotesCondition(caller.user, settings);
  const since = new Date(clock.now().getTime() - CLIP_WAIT_MS);
  const [row] = await em.execute<{ total: number; clipping: number }[]>(
    `select count(*)::int as total,
       (count(*) filter (where n.clip_status in (?, ?) and n.updated_at > ?))::int as clipping
     from note n where n.user_id = ? and ${exported.sql}`,
    [ClipStatus.queued, ClipStatus.processing, since, caller.user.id, ...exported.params],
  );
  return { totalNotes: row?.total ?? 0, clipping: row?.clipping ?? 0 };
}

/**
 * A run begins: the lease is taken. A client that asks to start over (its files are gone, or it
 * is new) gets no cursor; the integration's own stays, so the user's other devices go on.
 */
export async function startPull(
  deps: AppDeps,
  em: EntityManager,
  caller: SyncCaller,
  input: { clientId: string; fromStart: boolean },
): Promise<PullStart> {
  const lease = await holdLease(em, caller, input.clientId);
  const { integration } = lease;
  await deps.redis.del(sentKey(deps, integration.id));
  return {
    integration,
    settings: lease.settings,
    cursor: input.fromStart ? null : (integration.cursor ?? null),
    ...(await exportCounts(em, caller, lease.settings)),
  };
}

/** One batch of the lease holder's export after `cursor`, links made from `baseUrl`. */
export async function pullBatch(
  deps: AppDeps,
  em: EntityManager,
  caller: SyncCaller,
  lease: Lease,
  input: { cursor: string | null; baseUrl: string },
): Promise<ExportBatch> {
  const { id: integrationId, generation } = lease.integration;
  const scope = { integrationId, generation, settings: lease.settings, baseUrl: input.baseUrl };
  const batch = await exportBatch(em, caller.user, scope, input.cursor);
  if (batch.records.length) {
    const key = sentKey(deps, lease.integration.id);
    await deps.redis.multi().incrby(key, batch.records.length).expire(key, SENT_COUNT_TTL_S).exec();
  }
  return batch;
}

/**
 * Refuses a cursor that is not one the server made for the caller's integration, before the
 * call takes the lease or anything else: a forged cursor changes nothing.
 */
export async function checkCursor(
  em: EntityManager,
  caller: SyncCaller,
  cursor: string | null,
): Promise<void> {
  if (!cursor) return;
  const integration = await integrationOf(em, caller.user, caller.app);
  await syncPositionOf(em, { integrationId: integration.id, generation: integration.generation }, cursor);
}

/** Named notes, whatever the cursor (a client re-downloading files it failed to write). */
export function pullNotes(
  em: EntityManager,
  caller: SyncCaller,
  lease: Lease,
  input: { noteIds: readonly string[]; baseUrl: string },
): Promise<ExportRecord[]> {
  return exportRecords(em, caller.user, lease.settings, input.noteIds, input.baseUrl);
}

/**
 * The client has everything up to `cursor`: kept as the integration's position (unless the
 * export was started over since the cursor was made), the run (and how many notes it sent)
 * recorded and the lease let go. A cursor made for another integration is refused before
 * anything changes.
 */
export async function ackPull(
  deps: AppDeps,
  em: EntityManager,
  caller: SyncCaller,
  input: { clientId: string; cursor: string },
): Promise<void> {
  const integration = await integrationOf(em, caller.user, caller.app);
  const owner = { integrationId: integration.id, generation: integration.generation };
  const fresh = (await syncPositionOf(em, owner, input.cursor)) !== null;
  const sent = Number((await deps.redis.getdel(sentKey(deps, integration.id))) ?? 0);
  await acknowledgeSync(em, caller.user, caller.app, {
    ...input,
    generation: fresh ? integration.generation : null,
    count: sent,
  });
}

/** Archive (flow 9) from the note tool; another user's note is NOT_FOUND. A change like the app's own. */
export async function archiveNote(deps: AppDeps, em: EntityManager, caller: SyncCaller, noteId: string) {
  await setFlow({ ...deps, em }, caller.user, [noteId], Flow.archive);
}

/** Delete from the note tool: the note goes to the trash (NOT_FOUND for another user's). A change like the app's own. */
export async function trashNote(deps: AppDeps, em: EntityManager, caller: SyncCaller, noteId: string) {
  await trashNotes({ ...deps, em }, caller.user, [noteId]);
}

/** A plugin's device-flow poll (with the code it shows, if it is one of Margin's), limited per address. */
export async function pollDeviceToken(
  deps: AppDeps,
  em: EntityManager,
  input: { ip: string; clientId: string; userCode?: string | undefined },
): Promise<DeviceRedemption> {
  await enforceLimits(deps.redis, deps.config.redisPrefix, [
    { key: `sync-token:ip:${input.ip}`, ...LIMITS.devicePoll.perIp },
  ]);
  return redeemDeviceTicket(em, input.clientId, input.userCode);
}
