import type { EntityManager } from '@mikro-orm/postgresql';
import { initTRPC, TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { type TRPC_ERROR_CODE_KEY, TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { ZodError, type z } from 'zod';
import { AppError, ERROR_CODES, type ErrorPayload, httpStatus } from '../../src/errors.ts';
import { appErrorOf, appErrorOfStatus } from '../web/error-fallback.ts';
import type { Context } from './context.ts';
import { transformer } from './transformer.ts';

/** The HTTP status tRPC answers each of its codes with. */
const TRPC_STATUS = new Map(
  (Object.keys(TRPC_ERROR_CODES_BY_KEY) as TRPC_ERROR_CODE_KEY[]).map((code) => [
    code,
    getHTTPStatusCodeFromError(new TRPCError({ code })),
  ]),
);

/**
 * The tRPC code an AppError is thrown as: one tRPC answers with the status our table gives, the
 * one named like ours where several share a status (PARSE_ERROR and BAD_REQUEST are both 400).
 */
function trpcCodeOf(error: AppError): TRPC_ERROR_CODE_KEY {
  const status = httpStatus(error, 'trpc');
  const named = error.code as TRPC_ERROR_CODE_KEY;
  if (TRPC_STATUS.get(named) === status) return named;
  for (const [code, codeStatus] of TRPC_STATUS) if (codeStatus === status) return code;
  return 'INTERNAL_SERVER_ERROR';
}

/**
 * The AppError behind a tRPC error: the one a procedure threw, its refused input, or, for an
 * error of tRPC's own (an unknown path, a GET on a mutation, a body it cannot read), the code its
 * status is ours for, else the fallback's for that status.
 */
function appErrorOfTrpc(error: TRPCError): AppError {
  if (error.cause instanceof AppError) return error.cause;
  if (error.cause instanceof ZodError) return appErrorOf(error.cause, 'trpc');
  const status = getHTTPStatusCodeFromError(error);
  const code = ERROR_CODES.find(
    (candidate) => httpStatus({ code: candidate, reason: undefined }, 'trpc') === status,
  );
  return code ? new AppError(code) : appErrorOfStatus(status);
}

/** Maps any error to the client payload: codes and message keys only, never stacks or SQL. */
export function toErrorPayload(error: TRPCError): ErrorPayload {
  const cause = appErrorOfTrpc(error);
  if (cause.fieldErrors) {
    // tRPC's answer to a refused input names its first field's message (the sync fronts name the
    // first field refused with a message key of its own, as the AppError does).
    const first = cause.fieldErrors[0];
    return {
      appCode: cause.code,
      messageKey: first?.messageKey ?? cause.messageKey,
      fieldErrors: cause.fieldErrors,
    };
  }
  return {
    appCode: cause.code,
    messageKey: cause.messageKey,
    ...(cause.params && { params: cause.params }),
  };
}

const t = initTRPC.context<Context>().create({
  transformer,
  isDev: false,
  errorFormatter({ shape, error }) {
    const payload = toErrorPayload(error);
    return {
      code: shape.code,
      message: payload.messageKey,
      data: { code: shape.data.code, httpStatus: shape.data.httpStatus, path: shape.data.path, ...payload },
    };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Turns a thrown AppError into a TRPCError with the matching HTTP status. */
const appErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError) {
    const cause = result.error.cause;
    throw new TRPCError({ code: trpcCodeOf(cause), message: cause.messageKey, cause });
  }
  return result;
});

/** A batch shares one context, so each procedure gets its own EntityManager. */
const forkEntityManager = t.middleware(({ ctx, next }) =>
  next({ ctx: { em: (ctx.em ?? ctx.orm.em.fork()) as EntityManager } }),
);

export const publicProcedure = t.procedure.use(appErrors).use(forkEntityManager);

export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user || !ctx.session) throw new AppError('UNAUTHORIZED');
  return next({ ctx: { user: ctx.user, session: ctx.session } });
});

/**
 * An output schema tRPC checks with zod's synchronous `parse`. Given the schema itself, tRPC
 * calls `parseAsync`, which skips the parser zod compiles for an object shape: on a 100-row list
 * that is about 4× the time (~0.1 ms a call). Failures stay tRPC's "Output validation failed".
 */
export function syncOutput<T extends z.ZodType>(schema: T): (value: unknown) => z.output<T> {
  return (value) => schema.parse(value);
}
