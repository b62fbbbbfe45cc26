import { queueChangedPushes } from '../domain/sync/push/push.service.ts';
import { protectedProcedure } from './init.ts';

/**
 * A procedure whose success changes what the push tools receive (a highlight, an annotation, a
 * note's tags, state or place, a note trashed or deleted, a daily note): a debounced push to
 * the user's connected push tools is queued after it.
 */
export const changesExports = protectedProcedure.use(async ({ ctx, next }) => {
  const result = await next();
  if (result.ok) await queueChangedPushes(ctx.em, ctx, ctx.user.id);
  return result;
});
