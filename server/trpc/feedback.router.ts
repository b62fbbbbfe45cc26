import { z } from 'zod';
import { defaultLanguage } from '../../src/regions.ts';
import { zFeedbackView, zSendFeedbackInput } from '../../src/schemas/feedback.ts';
import type { AppDeps } from '../deps.ts';
import { type FeedbackDeps, listFeedback, sendFeedback } from '../domain/feedback/feedback.service.ts';
import { protectedProcedure, router } from './init.ts';

const serviceDeps = (deps: AppDeps): FeedbackDeps => ({
  redis: deps.redis,
  redisPrefix: deps.config.redisPrefix,
  queues: deps.queues,
  operatorEmail: deps.config.operatorEmail,
  operatorLanguage: defaultLanguage(deps.config.region),
});

/** The tools area's feedback form (/personSetting/feedback). */
export const feedbackRouter = router({
  /** Stores a message and, when OPERATOR_EMAIL is set, mails it to the operator. */
  send: protectedProcedure
    .input(zSendFeedbackInput)
    .output(zFeedbackView)
    .mutation(({ ctx, input }) => sendFeedback(ctx.em, serviceDeps(ctx), ctx.user, input)),

  /** The user's own latest messages. */
  list: protectedProcedure.output(z.array(zFeedbackView)).query(({ ctx }) => listFeedback(ctx.em, ctx.user)),
});
