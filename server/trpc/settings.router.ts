import { zUpdateUserSettingsInput, zUserSettings } from '../../src/schemas/user-settings.ts';
import {
  getUserSettings,
  resetUserSettings,
  updateUserSettings,
} from '../domain/account/user-settings.service.ts';
import { protectedProcedure, router } from './init.ts';

/** The colour theme page: theme, highlight colours c1–c6 and the text tooltip style. */
export const settingsRouter = router({
  get: protectedProcedure.output(zUserSettings).query(({ ctx }) => getUserSettings(ctx.em, ctx.user)),

  update: protectedProcedure
    .input(zUpdateUserSettingsInput)
    .output(zUserSettings)
    .mutation(({ ctx, input }) => updateUserSettings(ctx.em, ctx.user, input)),

  reset: protectedProcedure.output(zUserSettings).mutation(({ ctx }) => resetUserSettings(ctx.em, ctx.user)),
});
