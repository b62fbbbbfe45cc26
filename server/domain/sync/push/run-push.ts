import type { EntityManager } from '@mikro-orm/postgresql';
import type { PushJob } from '../../../../src/jobs.ts';
import { needsPushFeature } from '../../../../src/schemas/membership.ts';
import { clock } from '../../../clock.ts';
import { Integration, User } from '../../../db/entities/index.ts';
import type { ComputePool } from '../../compute/compute-pool.ts';
import { featureRefusal, type MembershipSettings } from '../../membership/gate.ts';
import { changesWaiting, exportBatch } from '../changes.ts';
import { settingsOf, unbind } from '../integrations.service.ts';
import type { CursorOwner } from '../sync-cursor.ts';
import { CONNECTORS } from './connectors.ts';
import { PUSH_ERRORS, PushCallError, type PushEnv, PushRefusedError } from './push-http.ts';
import { PushRecords } from './push-records.ts';

type PushRunResult =
  | { status: 'skipped' | 'superseded'; count: number }
  /** `waiting`: changes committed behind a transaction still open elsewhere are left for another run. */
  | { status: 'done'; count: number; waiting: boolean };

/**
 * Moves the cursor from `from` to `to` only if it is still `from`, the export was not started
 * over and the integration is still bound: a "run once", a reconnection or an unbinding while the
 * run was pushing wins over the run.
 */
async function advanceCursor(
  em: EntityManager,
  owner: CursorOwner,
  from: string | null,
  to: string,
): Promise<boolean> {
  const rows = await em.execute<{ id: string }[]>(
    `update integration set cursor = ?
     where id = ? and generation = ? and cursor is not distinct from ? and bound returning id`,
    [to, owner.integrationId, owner.generation, from],
  );
  return rows.length > 0;
}

async function recordRun(
  em: EntityManager,
  job: PushJob,
  run: { result: 'ok' | 'error'; error: string | null; count: number },
): Promise<void> {
  await em.execute(
    `update integration set last_run_at = ?, last_result = ?, last_error = ?, last_count = ?
     where user_id = ? and app = ?`,
    [clock.now(), run.result, run.error, run.count, job.userId, job.app],
  );
}

/**
 * One push of a user's changes to one tool: the integration's export is walked from its cursor,
 * each page pushed (what the push records say was already sent with the same content is skipped),
 * and the cursor saved only once the whole page is pushed. A disabled or unbound integration, or
 * one without push credentials (a SiYuan bound by its plugin), pushes nothing.
 */
export async function runPush(
  em: EntityManager,
  job: PushJob,
  env: PushEnv,
  baseUrl: string,
  membership: MembershipSettings,
  compute: ComputePool,
): Promise<PushRunResult> {
  const integration = await em.findOne(Integration, { user: job.userId, app: job.app });
  if (!integration?.bound || !integration.enabled || !integration.credentials)
    return { status: 'skipped', count: 0 };
  const connector = CONNECTORS[job.app];
  const destination = connector.destinationOf(integration.credentials);
  if (!destination) {
    await refusePush(em, job);
    return { status: 'skipped', count: 0 };
  }
  const user = await em.findOneOrFail(User, { id: job.userId });
  const refused = needsPushFeature(job.app) ? featureRefusal(membership, user, 'push') : null;
  if (refused) {
    // A lapsed member's tool keeps its connection; pushes resume once the membership does.
    await recordRun(em, job, { result: 'error', error: refused, count: 0 });
    return { status: 'skipped', count: 0 };
  }
  const settings = settingsOf(integration);
  const target = connector.open(integration.credentials, {
    records: new PushRecords(em, job.userId, job.app, destination),
    templates: settings.templates,
    render: { timeZone: user.timeZone, tagStyle: settings.tagStyle },
    budget: compute.budget(user.id, 'push'),
    folder: settings.folder,
    env,
  });
  const scope = { integrationId: integration.id, generation: integration.generation, settings, baseUrl };
  let cursor: string | null = integration.cursor ?? null;
  let count = 0;
  try {
    for (;;) {
      const page = await exportBatch(em, user, scope, cursor);
      for (const record of page.records) count += await target.pushNote(record);
      for (const noteId of page.deleted) count += await target.removeNote(noteId);
      if (!(await advanceCursor(em, scope, cursor, page.cursor))) return { status: 'superseded', count };
      cursor = page.cursor;
      if (!page.hasMore) break;
    }
  } catch (error) {
    if (error instanceof PushRefusedError) await refusePush(em, job, integration.generation);
    throw error;
  }
  await recordRun(em, job, { result: 'ok', error: null, count });
  return { status: 'done', count, waiting: await changesWaiting(em, job.userId, scope, cursor) };
}

/** The tool refused the credentials: unbound, with the reason on the settings page. */
export async function refusePush(em: EntityManager, job: PushJob, generation?: number): Promise<void> {
  // Reconnected (with new credentials) while the refused run went on: the new connection stays.
  if (generation !== undefined) {
    const now = await em.findOne(Integration, { user: job.userId, app: job.app }, { fields: ['generation'] });
    if (now?.generation !== generation) return;
  }
  await unbind(em, em.getReference(User, job.userId), job.app);
  await recordRun(em, job, { result: 'error', error: PUSH_ERRORS.keyRevoked, count: 0 });
}

/**
 * The run ended in `error` and will not be retried (the last attempt, or an address the fetcher
 * may not reach): the settings page shows why, with Retry, until a run succeeds.
 */
export async function failPush(em: EntityManager, job: PushJob, error: unknown): Promise<void> {
  const reason = error instanceof PushCallError ? error.reason : PUSH_ERRORS.failed;
  await recordRun(em, job, { result: 'error', error: reason, count: 0 });
}
