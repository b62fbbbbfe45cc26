import { queueChangedPushes } from '../domain/sync/push/push.service.ts';
import { queueWebhookDeliveries } from '../domain/webhooks/queue.ts';
import { protectedProcedure } from './init.ts';

/**
 * A procedure whose success may have recorded webhook events (the services record them in the
 * change's transaction): their delivery is queued after it.
 */
export const emitsWebhooks = protectedProcedure.use(async ({ ctx, next }) => {
  const result = await next();
  if (result.ok) await queueWebhookDeliveries(ctx.em, ctx, ctx.user.id);
  return result;
});

/**
 * A procedure whose success changes what the push tools receive (a highlight, an annotation, a
 * note's tags, state or place, a note trashed or deleted, a daily note): a debounced push to
 * the user's connected push tools is queued after it, and the delivery of its webhook events.
 */
export const changesExports = emitsWebhooks.use(async ({ ctx, next }) => {
  const result = await next();
  if (result.ok) await queueChangedPushes(ctx.em, ctx, ctx.user.id);
  return result;
});
