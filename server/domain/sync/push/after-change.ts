import type { EntityManager } from '@mikro-orm/postgresql';
import { queueWebhookDeliveries } from '../../webhooks/queue.ts';
import { type PushDeps, queueChangedPushes } from './push.service.ts';

/**
 * What a change notifies once it has committed, whichever front made it: `webhooks` (the
 * events its transaction recorded are delivered) or `exports` (those, and a debounced push to
 * the user's push tools, for a change to what they receive).
 */
export type ChangeReach = 'webhooks' | 'exports';

export async function queueAfterChange(
  em: EntityManager,
  deps: PushDeps,
  userId: number,
  reach: ChangeReach,
): Promise<void> {
  await queueWebhookDeliveries(em, deps, userId);
  if (reach === 'exports') await queueChangedPushes(em, deps, userId);
}
