import { z } from 'zod';
import {
  TOKEN_APPS,
  zAppInput,
  zConfirmDeviceInput,
  zConnectPushInput,
  zCreatedSyncToken,
  zCreateSyncTokenInput,
  zIntegrationView,
  zPreviewInput,
  zPreviewResult,
  zPushAppInput,
  zRenameSyncTokenInput,
  zSetEnabledInput,
  zSyncTokenIdInput,
  zSyncTokenView,
  zUpdateSettingsInput,
} from '../../src/schemas/sync.ts';
import {
  getIntegration,
  listIntegrations,
  resetCursor,
  setEnabled,
  unbind,
  updateSettings,
} from '../domain/sync/integrations.service.ts';
import { previewNote } from '../domain/sync/preview.ts';
import { connectPush, pushNow, requirePushAllowed } from '../domain/sync/push/push.service.ts';
import {
  confirmDevice,
  createSyncToken,
  listSyncTokens,
  renameSyncToken,
  revokeSyncToken,
} from '../domain/sync/tokens.ts';
import { publicOrigin } from '../web/public-origin.ts';
import { protectedProcedure, router } from './init.ts';

export const syncRouter = router({
  integrations: protectedProcedure
    .output(z.array(zIntegrationView))
    .query(({ ctx }) => listIntegrations(ctx.em, ctx.user)),

  integration: protectedProcedure
    .input(zAppInput)
    .output(zIntegrationView)
    .query(({ ctx, input }) => getIntegration(ctx.em, ctx.user, input.app)),

  updateSettings: protectedProcedure
    .input(zUpdateSettingsInput)
    .output(zIntegrationView)
    .mutation(({ ctx, input }) => updateSettings(ctx.em, ctx.user, input, ctx.compute)),

  setEnabled: protectedProcedure
    .input(zSetEnabledInput)
    .output(zIntegrationView)
    .mutation(({ ctx, input }) => setEnabled(ctx.em, ctx.user, input)),

  /** "Run once": everything is exported again on the next sync (a push tool's is queued now). */
  runOnce: protectedProcedure
    .input(zAppInput)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      requirePushAllowed(ctx.config, ctx.user, input.app);
      await resetCursor(ctx.em, ctx.user, input.app);
      await pushNow(ctx, ctx.user, input.app);
    }),

  unbind: protectedProcedure
    .input(zAppInput)
    .output(zIntegrationView)
    .mutation(({ ctx, input }) => unbind(ctx.em, ctx.user, input.app)),

  preview: protectedProcedure
    .input(zPreviewInput)
    .output(zPreviewResult)
    // A mutation, though it changes nothing: the unsaved templates it renders are too long for a URL.
    .mutation(({ ctx, input }) =>
      previewNote(ctx.em, ctx.user, input, publicOrigin(ctx.config, ctx.req), ctx.compute),
    ),

  tokens: protectedProcedure
    .output(z.array(zSyncTokenView))
    .query(({ ctx }) => listSyncTokens(ctx.em, ctx.user)),

  createToken: protectedProcedure
    .input(zCreateSyncTokenInput)
    .output(zCreatedSyncToken)
    .mutation(({ ctx, input }) => createSyncToken(ctx.em, ctx.user, input)),

  renameToken: protectedProcedure
    .input(zRenameSyncTokenInput)
    .output(zSyncTokenView)
    .mutation(({ ctx, input }) => renameSyncToken(ctx.em, ctx.user, input)),

  revokeToken: protectedProcedure
    .input(zSyncTokenIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => revokeSyncToken(ctx.em, ctx.user, input)),

  /** The device flow's confirmation on `/page/gentoken/<serviceId>/<clientId>`. */
  confirmDevice: protectedProcedure
    .input(zConfirmDeviceInput)
    .output(z.object({ app: z.enum(TOKEN_APPS) }))
    .mutation(({ ctx, input }) => confirmDevice(ctx.em, ctx.user, input)),

  /** Connects flomo, WorkFlowy or SiYuan: the credentials are checked against the tool, then saved (never sent back). */
  connectPush: protectedProcedure
    .input(zConnectPushInput)
    .output(zIntegrationView)
    .mutation(({ ctx, input }) => connectPush(ctx.em, ctx, ctx.user, input)),

  /** Queues a push again after it failed. */
  retryPush: protectedProcedure
    .input(zPushAppInput)
    .output(z.void())
    .mutation(({ ctx, input }) => pushNow(ctx, ctx.user, input.app)),
});
