import { type ChangeReach, queueAfterChange } from '../domain/sync/push/after-change.ts';
import { protectedProcedure } from './init.ts';

/** A procedure whose success is followed by what its change reaches (server/domain/sync/push/after-change.ts). */
const reaching = (reach: ChangeReach) =>
  protectedProcedure.use(async ({ ctx, next }) => {
    const result = await next();
    if (result.ok) await queueAfterChange(ctx.em, ctx, ctx.user.id, reach);
    return result;
  });

/** A procedure whose success may have recorded webhook events: their delivery is queued after it. */
export const emitsWebhooks = reaching('webhooks');

/**
 * A procedure whose success changes what the push tools receive (a highlight, an annotation, a
 * note's tags, state or place, a note trashed or deleted, a daily note): its webhook events'
 * delivery and a debounced push to the user's connected push tools are queued after it.
 */
export const changesExports = reaching('exports');
