import { z } from 'zod';
import { AppError } from '../../src/errors.ts';
import {
  CODE_COOLDOWN_SECONDS,
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
import { User } from '../db/entities/index.ts';
import { codeDeps } from '../deps.ts';
import {
  bindEmail,
  changePassword,
  deleteAccount,
  listBindings,
  unbindEmail,
  unbindProvider,
  updateLanguage,
  updateProfile,
  updateTimeZone,
} from '../domain/account/account.service.ts';
import { issueCode } from '../domain/auth/codes.service.ts';
import { toMe } from '../domain/auth/me.ts';
import { protectedProcedure, router } from './init.ts';

const sentCode = { cooldownSeconds: CODE_COOLDOWN_SECONDS };

export const accountRouter = router({
  updateProfile: protectedProcedure
    .input(zUpdateProfileInput)
    .output(zMe)
    .mutation(async ({ ctx, input }) => toMe(await updateProfile(ctx.em, ctx.user, input))),

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
    .mutation(async ({ ctx, input }) => {
      const taken = await ctx.em.count(User, { email: input.email, id: { $ne: ctx.user.id } });
      await issueCode(ctx.em, codeDeps(ctx), {
        email: input.email,
        purpose: 'bind',
        user: ctx.user,
        ip: ctx.client.ip,
        language: ctx.user.language ?? ctx.client.language,
        deliver: taken === 0,
      });
      return sentCode;
    }),

  bindEmail: protectedProcedure
    .input(zBindEmailInput)
    .output(zMe)
    .mutation(async ({ ctx, input }) =>
      toMe(await bindEmail(ctx.em, codeDeps(ctx), ctx.user, input, ctx.client)),
    ),

  unbindEmail: protectedProcedure.output(z.void()).mutation(({ ctx }) => unbindEmail(ctx.em, ctx.user)),

  bindings: protectedProcedure.output(zBindings).query(({ ctx }) => listBindings(ctx.em, ctx.user)),

  unbindProvider: protectedProcedure
    .input(zUnbindProviderInput)
    .output(z.void())
    .mutation(({ ctx, input }) => unbindProvider(ctx.em, ctx.user, input.provider)),

  /** For accounts without a password: the code that confirms deletion. */
  sendDeleteCode: protectedProcedure.output(zSendCodeResult).mutation(async ({ ctx }) => {
    if (!ctx.user.email) throw new AppError('BAD_REQUEST', 'errors.emailEmpty');
    await issueCode(ctx.em, codeDeps(ctx), {
      email: ctx.user.email,
      purpose: 'delete',
      user: ctx.user,
      ip: ctx.client.ip,
      language: ctx.user.language ?? ctx.client.language,
    });
    return sentCode;
  }),

  delete: protectedProcedure
    .input(zDeleteAccountInput)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await deleteAccount(ctx.em, codeDeps(ctx), ctx.user, ctx.session, input, ctx.client);
      ctx.cookies.clear();
    }),
});
