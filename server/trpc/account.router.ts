import { z } from 'zod';
import {
  zBindEmailInput,
  zBindings,
  zChangePasswordInput,
  zDeleteAccountInput,
  zMe,
  zSendBindCodeInput,
  zSendCodeResult,
  zSetLanguageInput,
  zUnbindProviderInput,
  zUpdateProfileInput,
} from '../../src/schemas/auth.ts';
import { zTimeZoneInput } from '../../src/schemas/daily.ts';
import { codeDeps } from '../deps.ts';
import {
  bindEmail,
  changePassword,
  deleteAccount,
  listBindings,
  sendBindCode,
  sendDeleteCode,
  unbindEmail,
  unbindProvider,
  updateLanguage,
  updateProfile,
  updateTimeZone,
} from '../domain/account/account.service.ts';
import { protectedProcedure, router } from './init.ts';

export const accountRouter = router({
  updateProfile: protectedProcedure
    .input(zUpdateProfileInput)
    .output(zMe)
    .mutation(({ ctx, input }) => updateProfile(ctx.em, ctx.user, input)),

  setLanguage: protectedProcedure
    .input(zSetLanguageInput)
    .output(z.void())
    .mutation(({ ctx, input }) => updateLanguage(ctx.em, ctx.user, input.language)),

  setTimeZone: protectedProcedure
    .input(zTimeZoneInput)
    .output(z.void())
    .mutation(({ ctx, input }) => updateTimeZone(ctx.em, ctx.user, input.timeZone)),

  changePassword: protectedProcedure
    .input(zChangePasswordInput)
    .output(z.void())
    .mutation(({ ctx, input }) => changePassword(ctx.em, ctx.user, ctx.session, input)),

  sendBindCode: protectedProcedure
    .input(zSendBindCodeInput)
    .output(zSendCodeResult)
    .mutation(({ ctx, input }) => sendBindCode(ctx.em, codeDeps(ctx), ctx.user, input.email, ctx.client)),

  bindEmail: protectedProcedure
    .input(zBindEmailInput)
    .output(zMe)
    .mutation(({ ctx, input }) => bindEmail(ctx.em, codeDeps(ctx), ctx.user, input, ctx.client)),

  unbindEmail: protectedProcedure.output(z.void()).mutation(({ ctx }) => unbindEmail(ctx.em, ctx.user)),

  bindings: protectedProcedure.output(zBindings).query(({ ctx }) => listBindings(ctx.em, ctx.user)),

  unbindProvider: protectedProcedure
    .input(zUnbindProviderInput)
    .output(z.void())
    .mutation(({ ctx, input }) => unbindProvider(ctx.em, ctx.user, input.provider)),

  /** For accounts without a password: the code that confirms deletion. */
  sendDeleteCode: protectedProcedure
    .output(zSendCodeResult)
    .mutation(({ ctx }) => sendDeleteCode(ctx.em, codeDeps(ctx), ctx.user, ctx.client)),

  delete: protectedProcedure
    .input(zDeleteAccountInput)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await deleteAccount(ctx.em, codeDeps(ctx), ctx.user, ctx.session, input, ctx.client);
      ctx.cookies.clear();
    }),
});
