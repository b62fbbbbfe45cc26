import { z } from 'zod';
import {
  zApiTokenIdInput,
  zApiTokenView,
  zCreateApiTokenInput,
  zCreatedApiToken,
} from '../../src/schemas/api-tokens.ts';
import { createApiToken, listApiTokens, revokeApiToken } from '../domain/openapi/api-tokens.ts';
import { protectedProcedure, router } from './init.ts';

/** The "API and daily note" settings page: the account's Open API tokens. */
export const openapiRouter = router({
  tokens: protectedProcedure
    .output(z.array(zApiTokenView))
    .query(({ ctx }) => listApiTokens(ctx.em, ctx.user)),

  /** The plain token is in this answer only; the server keeps its hash. */
  createToken: protectedProcedure
    .input(zCreateApiTokenInput)
    .output(zCreatedApiToken)
    .mutation(({ ctx, input }) => createApiToken(ctx.em, ctx.config, ctx.user, input)),

  revokeToken: protectedProcedure
    .input(zApiTokenIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => revokeApiToken(ctx.em, ctx.user, input)),
});
