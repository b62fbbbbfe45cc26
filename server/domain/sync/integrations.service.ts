import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../../src/errors.ts';
import {
  INTEGRATION_APPS,
  type IntegrationApp,
  type IntegrationSettings,
  type IntegrationSettingsPatch,
  type IntegrationView,
  isPushApp,
  zIntegrationSettings,
  zSyncFilter,
} from '../../../src/schemas/sync.ts';
import { clock } from '../../clock.ts';
import { Integration, SyncToken, type User } from '../../db/entities/index.ts';
import type { ComputePool } from '../compute/compute-pool.ts';
import { ownFolder } from '../folders/folders.service.ts';
import { checkTemplates, DEFAULT_TEMPLATES } from './templates/render.ts';

/** How long a client's sync holds the integration before another client may start one. */
export const SYNC_LEASE_MS = 2 * 60_000;

/** The integration's settings as the schema reads them (defaults filled in for what was never set). */
export function settingsOf(integration: Pick<Integration, 'settings'>): IntegrationSettings {
  const parsed = zIntegrationSettings.safeParse(integration.settings ?? {});
  return parsed.success ? parsed.data : zIntegrationSettings.parse({});
}

/** The user's saved settings for `app` (the defaults when they never saved any); reads only. */
export async function savedSettings(
  em: EntityManager,
  user: User,
  app: IntegrationApp,
): Promise<IntegrationSettings> {
  return settingsOf((await em.findOne(Integration, { user, app })) ?? { settings: {} });
}

/** The same settings exporting every note: no exclude range, no filter (a preview, the zip). */
export function exportingEverything(settings: IntegrationSettings): IntegrationSettings {
  return { ...settings, excludeRanges: 0, filter: zSyncFilter.parse({}) };
}

function view(app: IntegrationApp, integration: Integration | null): IntegrationView {
  return {
    app,
    bound: integration?.bound ?? false,
    enabled: integration?.enabled ?? true,
    settings: settingsOf(integration ?? { settings: {} }),
    defaultTemplates: DEFAULT_TEMPLATES[app],
    lastRunAt: integration?.lastRunAt ?? null,
    lastResult: integration?.lastResult ?? null,
    lastError: integration?.lastError ?? null,
    lastCount: integration?.lastCount ?? 0,
  };
}

/** The user's row for `app`, made (unbound) on first use; concurrent first uses make one row. */
export async function integrationOf(
  em: EntityManager,
  user: User,
  app: IntegrationApp,
): Promise<Integration> {
  const now = clock.now();
  await em.execute(
    `insert into integration (user_id, app, created_at, updated_at) values (?, ?, ?, ?)
     on conflict (user_id, app) do nothing`,
    [user.id, app, now, now],
  );
  return em.findOneOrFail(Integration, { user, app });
}

export async function listIntegrations(em: EntityManager, user: User): Promise<IntegrationView[]> {
  const rows = await em.find(Integration, { user });
  return INTEGRATION_APPS.map((app) => view(app, rows.find((r) => r.app === app) ?? null));
}

export async function getIntegration(
  em: EntityManager,
  user: User,
  app: IntegrationApp,
): Promise<IntegrationView> {
  return view(app, await em.findOne(Integration, { user, app }));
}

/** A connection was made (a plugin's token, a push app's credentials): the integration is bound. */
export async function markBound(em: EntityManager, user: User, app: IntegrationApp): Promise<Integration> {
  const integration = await integrationOf(em, user, app);
  integration.bound = true;
  return integration;
}

/**
 * Saves the settings an update names over the current ones. The filter's folder must be the
 * user's, and every template the app uses is trial-rendered first; one that fails is named in
 * the error and nothing is saved. A note tool that pulls gets everything again on its next
 * sync when what it receives changed (templates, styles, ranges, filter): its files are
 * rewritten the new way. Push tools are not re-sent (flomo would get every memo twice).
 */
export async function updateSettings(
  em: EntityManager,
  user: User,
  input: { app: IntegrationApp; settings: IntegrationSettingsPatch },
  compute: ComputePool,
): Promise<IntegrationView> {
  const integration = await integrationOf(em, user, input.app);
  const current = settingsOf(integration);
  const next = zIntegrationSettings.parse({
    ...current,
    ...input.settings,
    templates: { ...current.templates, ...input.settings.templates },
  });
  // An emptied template means "use the default".
  for (const [name, source] of Object.entries(next.templates)) {
    if (!source?.trim()) delete next.templates[name as keyof typeof next.templates];
  }
  const folderId = next.filter.folderId;
  if (folderId && folderId !== current.filter.folderId) await ownFolder(em, user, folderId);
  await checkTemplates(compute.budget(user.id, 'request'), input.app, next.templates);
  if (!isPushApp(input.app) && JSON.stringify(next) !== JSON.stringify(current)) startOver(integration);
  integration.settings = next;
  await em.flush();
  return view(input.app, integration);
}

export async function setEnabled(
  em: EntityManager,
  user: User,
  input: { app: IntegrationApp; enabled: boolean },
): Promise<IntegrationView> {
  const integration = await integrationOf(em, user, input.app);
  integration.enabled = input.enabled;
  await em.flush();
  return view(input.app, integration);
}

/**
 * The export starts from the beginning: the stored cursor is forgotten and the generation moves
 * on, so every client's cursor (each of the user's devices, one syncing right now) is stale and
 * starts over too, and a run that began before cannot store its position.
 */
export function startOver(integration: Integration): void {
  integration.cursor = null;
  integration.generation += 1;
}

/** "Run once": the next sync sends everything again, from the beginning. */
export async function resetCursor(em: EntityManager, user: User, app: IntegrationApp): Promise<Integration> {
  const integration = await integrationOf(em, user, app);
  startOver(integration);
  await em.flush();
  return integration;
}

/**
 * Unbinds: forgets the credentials and the cursor and revokes the app's sync tokens, in one
 * transaction. Settings (templates) stay for a later reconnection.
 */
export async function unbind(em: EntityManager, user: User, app: IntegrationApp): Promise<IntegrationView> {
  return em.transactional(async (tx) => {
    const integration = await integrationOf(tx, user, app);
    integration.bound = false;
    integration.credentials = null;
    startOver(integration);
    integration.syncClient = null;
    integration.syncLeaseUntil = null;
    await tx.nativeUpdate(
      SyncToken,
      { user, app: app as SyncToken['app'], revokedAt: null },
      { revokedAt: clock.now() },
    );
    await tx.flush();
    return view(app, integration);
  });
}

/**
 * Takes (or renews) the integration's sync lease for `clientId`, in one statement: one client
 * syncs at a time. A second client gets CONFLICT until the first acknowledges or its lease
 * runs out; two clients starting at once cannot both win. A disabled integration syncs nothing.
 */
export async function takeSyncLease(
  em: EntityManager,
  user: User,
  app: IntegrationApp,
  clientId: string,
): Promise<Integration> {
  const now = clock.now();
  const [row] = await em.execute<Record<string, unknown>[]>(
    `insert into integration as i (user_id, app, sync_client, sync_lease_until, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?)
     on conflict (user_id, app) do update set sync_client = excluded.sync_client, sync_lease_until = excluded.sync_lease_until
       where i.sync_client is null or i.sync_client = excluded.sync_client or i.sync_lease_until < ?
     returning *`,
    [user.id, app, clientId, new Date(now.getTime() + SYNC_LEASE_MS), now, now, now],
  );
  if (!row) throw new AppError('CONFLICT', 'errors.syncRunning');
  const integration = em.map(Integration, row);
  if (!integration.enabled) {
    await em.execute('update integration set sync_client = null, sync_lease_until = null where id = ?', [
      integration.id,
    ]);
    throw new AppError('FORBIDDEN', 'errors.syncDisabled');
  }
  return integration;
}

/**
 * The client has written everything up to `cursor`: it is kept as the integration's position if
 * it was made in the integration's `generation` (a cursor from before the export was started
 * over, `null`, is not), the run is recorded, and the lease let go. Only the lease holder may
 * acknowledge.
 */
export async function acknowledgeSync(
  em: EntityManager,
  user: User,
  app: IntegrationApp,
  input: { clientId: string; cursor: string; generation: number | null; count: number },
): Promise<void> {
  const now = clock.now();
  const updated = await em.execute<{ id: string }[]>(
    `update integration set cursor = case when generation = ? then ? else cursor end,
       sync_client = null, sync_lease_until = null, last_run_at = ?, last_result = 'ok', last_error = null, last_count = ?
     where user_id = ? and app = ? and (sync_client is null or sync_client = ? or sync_lease_until < ?) returning id`,
    [input.generation ?? -1, input.cursor, now, input.count, user.id, app, input.clientId, now],
  );
  if (!updated.length) throw new AppError('CONFLICT', 'errors.syncRunning');
}
