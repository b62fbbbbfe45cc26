import type { EntityManager } from '@mikro-orm/postgresql';
import { needsPushFeature } from '../../../../src/schemas/membership.ts';
import {
  type IntegrationApp,
  type IntegrationView,
  isPushApp,
  PUSH_APPS,
  type PushApp,
} from '../../../../src/schemas/sync.ts';
import type { AppConfig } from '../../../config.ts';
import type { User } from '../../../db/entities/index.ts';
import { pgTextArray } from '../../../db/pg-array.ts';
import { log } from '../../../log.ts';
import { enqueue, type Queues } from '../../../queue.ts';
import { requireFeature } from '../../membership/gate.ts';
import { getIntegration, markBound, startOver } from '../integrations.service.ts';
import { CONNECTORS } from './connectors.ts';
import { pushEnv } from './push-http.ts';
import { PushRecords } from './push-records.ts';

/** What queuing a push needs. */
export interface PushDeps {
  queues: Queues;
  config: AppConfig;
}

/**
 * Queues a push of the user's changes to `app`. Debounced changes wait PUSH_DEBOUNCE_MS, so
 * a burst of edits makes one job; a push the user asked for goes at once (or joins the one
 * already waiting).
 */
export async function queuePush(
  deps: PushDeps,
  userId: number,
  app: PushApp,
  debounce: boolean,
): Promise<void> {
  await enqueue(
    deps.queues,
    'push',
    { userId, app },
    { delay: debounce ? deps.config.pushDebounceMs : 0, backoffDelay: deps.config.pushRetryDelayMs },
  );
}

/**
 * The user's highlights changed: a debounced push to every push tool connected and enabled. The
 * change is already saved and the next push sends it anyway, so a queue that cannot be reached
 * is logged, not reported to the user as their edit failing.
 */
export async function queueChangedPushes(em: EntityManager, deps: PushDeps, userId: number): Promise<void> {
  try {
    const rows = await em.execute<{ app: PushApp }[]>(
      `select app from integration
       where user_id = ? and app = any(?::text[]) and bound and enabled and credentials is not null`,
      [userId, pgTextArray(PUSH_APPS)],
    );
    for (const { app } of rows) await queuePush(deps, userId, app, true);
  } catch (error) {
    log.warn('push not queued', { userId, error: (error as Error).message });
  }
}

/**
 * Connects a push tool: the credentials are checked against the tool (an AppError naming what
 * is wrong, and nothing saved, when they fail), saved, and the integration bound, then a push of
 * everything the integration exports is queued. Records of pushes to another destination are
 * forgotten; those to this one are kept, so reconnecting sends nothing twice.
 */
export async function connectPush(
  em: EntityManager,
  deps: PushDeps,
  user: User,
  input: { app: PushApp; credentials: unknown },
): Promise<IntegrationView> {
  requirePushAllowed(deps.config, user, input.app);
  const { credentials, destination } = await CONNECTORS[input.app].connect(
    input.credentials,
    pushEnv(deps.config),
  );
  await em.transactional(async (tx) => {
    const integration = await markBound(tx, user, input.app);
    integration.credentials = credentials;
    startOver(integration);
    integration.lastResult = null;
    integration.lastError = null;
    await new PushRecords(tx, user.id, input.app, destination).forgetOtherDestinations();
  });
  await queuePush(deps, user.id, input.app, false);
  return getIntegration(em, user, input.app);
}

/** Pushing to flomo and WorkFlowy is a PRO feature while membership is on (SiYuan's is not). */
export function requirePushAllowed(config: AppConfig, user: User, app: IntegrationApp): void {
  if (needsPushFeature(app)) requireFeature(config, user, 'push');
}

/** "Retry" after a failed push, and "run once" (which has reset the cursor) of a push tool: a push now. */
export async function pushNow(deps: PushDeps, user: User, app: IntegrationApp): Promise<void> {
  if (!isPushApp(app)) return;
  requirePushAllowed(deps.config, user, app);
  await queuePush(deps, user.id, app, false);
}
