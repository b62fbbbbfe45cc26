import { z } from 'zod';
import {
  zLoginInput,
  zLoginResult,
  zMe,
  zProviders,
  zQrCreated,
  zQrDecideInput,
  zQrPollInput,
  zQrPollResult,
  zQrRequester,
  zQrTicketInput,
  zRegisterInput,
  zResetPasswordInput,
  zSendCodeInput,
  zSendCodeResult,
} from '../../src/schemas/auth.ts';
import { codeDeps } from '../deps.ts';
import { login, loginProviders, register, resetPassword, sendCode } from '../domain/auth/auth.service.ts';
import { toMe } from '../domain/auth/me.ts';
import { createTicket, decideTicket, pollTicket, scanTicket } from '../domain/auth/qr.service.ts';
import { revokeSession, revokeSessions } from '../domain/auth/session.service.ts';
import { publicOrigin } from '../web/public-origin.ts';
import type { Context } from './context.ts';
import { protectedProcedure, publicProcedure, router } from './init.ts';

function qrDeps(ctx: Context) {
  return {
    redis: ctx.redis,
    redisPrefix: ctx.config.redisPrefix,
    publicUrl: publicOrigin(ctx.config, ctx.req),
  };
}

export const authRouter = router({
  /** Login types allowed in this region and configured on this install, primary first. */
  providers: publicProcedure.output(zProviders).query(({ ctx }) => loginProviders(ctx.config)),

  me: publicProcedure.output(zMe.nullable()).query(({ ctx }) => (ctx.user ? toMe(ctx.user) : null)),

  /** Same answer whether or not the email has an account. */
  sendCode: publicProcedure
    .input(zSendCodeInput)
    .output(zSendCodeResult)
    .mutation(({ ctx, input }) => sendCode(ctx.em, codeDeps(ctx), input, ctx.client)),

  register: publicProcedure
    .input(zRegisterInput)
    .output(zLoginResult)
    .mutation(async ({ ctx, input }) => {
      const { user, session } = await register(ctx.em, codeDeps(ctx), input, ctx.client);
      ctx.cookies.set(session);
      return { me: toMe(user) };
    }),

  login: publicProcedure
    .input(zLoginInput)
    .output(zLoginResult)
    .mutation(async ({ ctx, input }) => {
      const { user, session } = await login(ctx.em, codeDeps(ctx), input, ctx.client);
      ctx.cookies.set(session);
      return { me: toMe(user) };
    }),

  logout: protectedProcedure.output(z.void()).mutation(async ({ ctx }) => {
    await revokeSession(ctx.em, ctx.session);
    ctx.cookies.clear();
  }),

  logoutEverywhere: protectedProcedure.output(z.object({ revoked: z.number() })).mutation(async ({ ctx }) => {
    const revoked = await revokeSessions(ctx.em, ctx.user);
    ctx.cookies.clear();
    return { revoked };
  }),

  resetPassword: publicProcedure
    .input(zResetPasswordInput)
    .output(z.void())
    .mutation(({ ctx, input }) => resetPassword(ctx.em, codeDeps(ctx), input, ctx.client)),

  qrCreate: publicProcedure.output(zQrCreated).mutation(({ ctx }) => createTicket(qrDeps(ctx), ctx.client)),

  qrPoll: publicProcedure
    .input(zQrPollInput)
    .output(zQrPollResult.extend({ me: zMe.optional() }))
    .mutation(async ({ ctx, input }) => {
      const result = await pollTicket(ctx.em, qrDeps(ctx), input, ctx.client);
      if (!result.signedIn) return { status: result.status };
      ctx.cookies.set(result.signedIn.session);
      return { status: result.status, me: toMe(result.signedIn.user) };
    }),

  qrScan: protectedProcedure
    .input(zQrTicketInput)
    .output(zQrRequester)
    .mutation(({ ctx, input }) => scanTicket(qrDeps(ctx), input.ticketId)),

  qrDecide: protectedProcedure
    .input(zQrDecideInput)
    .output(z.void())
    .mutation(({ ctx, input }) => decideTicket(qrDeps(ctx), ctx.user, input.ticketId, input.approve)),
});
