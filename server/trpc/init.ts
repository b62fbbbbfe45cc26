import type { EntityManager } from '@mikro-orm/postgresql';
import { initTRPC, TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { ZodError, type z } from 'zod';
import {
  AppError,
  type AppErrorCode,
  DEFAULT_MESSAGE_KEY,
  type ErrorPayload,
  fieldErrorsOf,
} from '../../src/errors.ts';
import type { Context } from './context.ts';
import { transformer } from './transformer.ts';

const TRPC_CODE: Record<AppErrorCode, TRPCError['code']> = {
  BAD_REQUEST: 'BAD_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  METHOD_NOT_ALLOWED: 'METHOD_NOT_SUPPORTED',
  CONFLICT: 'CONFLICT',
  TOO_MANY_REQUESTS: 'TOO_MANY_REQUESTS',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  INTERNAL: 'INTERNAL_SERVER_ERROR',
};

const APP_CODE: Partial<Record<TRPCError['code'], AppErrorCode>> = {
  ...Object.fromEntries(Object.entries(TRPC_CODE).map(([app, trpc]) => [trpc, app])),
  // tRPC's own request errors: a body that is not JSON, a content type it cannot read.
  PARSE_ERROR: 'BAD_REQUEST',
  UNSUPPORTED_MEDIA_TYPE: 'BAD_REQUEST',
  UNPROCESSABLE_CONTENT: 'BAD_REQUEST',
};

/**
 * The app code of a tRPC error no procedure threw (an unknown path, a GET on a mutation): its own
 * when it has one, BAD_REQUEST for any other 4xx, INTERNAL only for a 5xx.
 */
function appCodeOf(error: TRPCError): AppErrorCode {
  const known = APP_CODE[error.code];
  if (known) return known;
  return getHTTPStatusCodeFromError(error) < 500 ? 'BAD_REQUEST' : 'INTERNAL';
}

/** Maps any error to the client payload: codes and message keys only, never stacks or SQL. */
export function toErrorPayload(error: TRPCError): ErrorPayload {
  const cause = error.cause;
  if (cause instanceof AppError) {
    return {
      appCode: cause.code,
      messageKey: cause.messageKey,
      ...(cause.params && { params: cause.params }),
    };
  }
  if (cause instanceof ZodError) {
    const fields = fieldErrorsOf(cause);
    return {
      appCode: 'BAD_REQUEST',
      messageKey: fields?.[0]?.messageKey ?? 'errors.invalidInput',
      fieldErrors: fields,
    };
  }
  const appCode = appCodeOf(error);
  return { appCode, messageKey: DEFAULT_MESSAGE_KEY[appCode] };
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
    throw new TRPCError({ code: TRPC_CODE[cause.code], message: cause.messageKey, cause });
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
