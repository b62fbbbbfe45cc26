import { z } from 'zod';
import {
  zCreateWebhookInput,
  zUpdateWebhookInput,
  zWebhookDeliveriesInput,
  zWebhookDeliveryPage,
  zWebhookEndpointView,
  zWebhookIdInput,
  zWebhookWithSecret,
} from '../../src/schemas/webhooks.ts';
import type { AppDeps } from '../deps.ts';
import {
  createWebhook,
  listWebhookDeliveries,
  listWebhooks,
  removeWebhook,
  rollWebhookSecret,
  sendWebhookTest,
  updateWebhook,
} from '../domain/webhooks/endpoints.service.ts';
import { protectedProcedure, router } from './init.ts';

const serviceDeps = (deps: AppDeps) => ({
  queues: deps.queues,
  allowedTargets: deps.config.fetchAllowTargets,
  membership: deps.config,
});

export const webhooksRouter = router({
  list: protectedProcedure
    .output(z.array(zWebhookEndpointView))
    .query(({ ctx }) => listWebhooks(ctx.em, ctx.user)),

  /** A new endpoint; its signing secret is in the answer this once. */
  create: protectedProcedure
    .input(zCreateWebhookInput)
    .output(zWebhookWithSecret)
    .mutation(({ ctx, input }) => createWebhook(ctx.em, serviceDeps(ctx), ctx.user, input)),

  update: protectedProcedure
    .input(zUpdateWebhookInput)
    .output(zWebhookEndpointView)
    .mutation(({ ctx, input }) => updateWebhook(ctx.em, serviceDeps(ctx), ctx.user, input)),

  remove: protectedProcedure
    .input(zWebhookIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => removeWebhook(ctx.em, ctx.user, input.id)),

  /** A new signing secret, in the answer this once. */
  rollSecret: protectedProcedure
    .input(zWebhookIdInput)
    .output(zWebhookWithSecret)
    .mutation(({ ctx, input }) => rollWebhookSecret(ctx.em, ctx.user, input.id)),

  deliveries: protectedProcedure
    .input(zWebhookDeliveriesInput)
    .output(zWebhookDeliveryPage)
    .query(({ ctx, input }) => listWebhookDeliveries(ctx.em, ctx.user, input)),

  sendTest: protectedProcedure
    .input(zWebhookIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => sendWebhookTest(ctx.em, serviceDeps(ctx), ctx.user, input.id)),
});
