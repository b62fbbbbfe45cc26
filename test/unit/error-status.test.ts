import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import type { Request as ExpressRequest } from 'express';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { setLogLevel } from '../../server/log.ts';
import { failureOf } from '../../server/openapi/api-errors.ts';
import { syncFailureOf } from '../../server/sync/sync-errors.ts';
import type { Context } from '../../server/trpc/context.ts';
import { publicProcedure, router } from '../../server/trpc/init.ts';
import { HttpError, jsonTooDeep } from '../../server/web/json-body.ts';
import {
  AppError,
  type AppErrorCode,
  type AppErrorReason,
  ERROR_CODES,
  ERROR_FRONTS,
  ERROR_REASONS,
  type ErrorFront,
  httpStatus,
  refusal,
} from '../../src/errors.ts';

/** What each front answers for each code, as its callers have always been told. */
const STATUS: Record<AppErrorCode, Record<ErrorFront, number>> = {
  BAD_REQUEST: { trpc: 400, rest: 422, sync: 400 },
  UNAUTHORIZED: { trpc: 401, rest: 401, sync: 401 },
  FORBIDDEN: { trpc: 403, rest: 403, sync: 403 },
  NOT_FOUND: { trpc: 404, rest: 404, sync: 404 },
  METHOD_NOT_ALLOWED: { trpc: 405, rest: 405, sync: 500 },
  CONFLICT: { trpc: 409, rest: 409, sync: 409 },
  TOO_MANY_REQUESTS: { trpc: 429, rest: 429, sync: 429 },
  PAYLOAD_TOO_LARGE: { trpc: 413, rest: 413, sync: 413 },
  INTERNAL: { trpc: 500, rest: 500, sync: 500 },
};

/** A BAD_REQUEST with each reason (every reason is thrown as one). */
const REASON_STATUS: Record<AppErrorReason, Record<ErrorFront, number>> = {
  templateFailed: { trpc: 400, rest: 422, sync: 422 },
  budgetExceeded: { trpc: 400, rest: 422, sync: 422 },
  cursorInvalid: { trpc: 400, rest: 422, sync: 400 },
  malformedRequest: { trpc: 400, rest: 400, sync: 400 },
};

const request = { get: () => undefined } as unknown as ExpressRequest;
const reasoned = (reason: AppErrorReason) => new AppError('BAD_REQUEST', undefined, undefined, { reason });

/** A router of the real base procedure, one query per code that throws it. */
const throwing = router(
  Object.fromEntries(
    ERROR_CODES.map((code) => [
      code,
      publicProcedure.query(() => {
        throw new AppError(code);
      }),
    ]),
  ),
);

/** The HTTP status tRPC answers a procedure throwing `code` with. */
async function trpcStatus(code: AppErrorCode): Promise<number> {
  const res = await fetchRequestHandler({
    endpoint: '/trpc',
    req: new Request(`http://margin.test/trpc/${code}`),
    router: throwing,
    createContext: () => ({ em: {} }) as unknown as Context,
  });
  return res.status;
}

describe('the status function', () => {
  test('every code, every front', () => {
    const table = Object.fromEntries(
      ERROR_CODES.map((code) => [
        code,
        Object.fromEntries(
          ERROR_FRONTS.map((front) => [front, httpStatus({ code, reason: undefined }, front)]),
        ),
      ]),
    );
    expect(table).toEqual(STATUS);
  });

  test('every reason, every front', () => {
    const table = Object.fromEntries(
      ERROR_REASONS.map((reason) => [
        reason,
        Object.fromEntries(ERROR_FRONTS.map((front) => [front, httpStatus(reasoned(reason), front)])),
      ]),
    );
    expect(table).toEqual(REASON_STATUS);
  });
});

describe('each front answers with it', () => {
  test.each(ERROR_CODES)('%s: tRPC, the REST API and the sync fronts', async (code) => {
    const error = new AppError(code);
    expect(await trpcStatus(code)).toBe(STATUS[code].trpc);
    expect(failureOf(error, request).status).toBe(STATUS[code].rest);
    expect(failureOf(error, request).body.code).toBe(STATUS[code].rest);
    expect(syncFailureOf(error).status).toBe(STATUS[code].sync);
  });

  test.each(ERROR_REASONS)('a BAD_REQUEST for %s: the REST API and the sync fronts', (reason) => {
    expect(failureOf(reasoned(reason), request).status).toBe(REASON_STATUS[reason].rest);
    expect(syncFailureOf(reasoned(reason)).status).toBe(REASON_STATUS[reason].sync);
  });

  test('the sync fronts tell refusals of one code apart by their reason', () => {
    const codeOf = (reason: AppErrorReason) => syncFailureOf(reasoned(reason)).code;
    expect(ERROR_REASONS.map((reason) => [reason, codeOf(reason)])).toEqual([
      ['templateFailed', 'template_failed'],
      ['budgetExceeded', 'template_failed'],
      ['cursorInvalid', 'cursor_invalid'],
      ['malformedRequest', 'invalid_input'],
    ]);
  });
});

describe('the fallback for errors that are not AppErrors', () => {
  beforeAll(() => setLogLevel('silent'));
  afterAll(() => setLogLevel('info'));

  const refused = z
    .object({
      name: z.string(),
      cursor: z.string().refine(() => false, refusal('errors.syncCursorInvalid', 'cursorInvalid')),
    })
    .safeParse({ name: 1, cursor: 'x' }).error;

  test('a refused parse is bad input naming each field', () => {
    expect(failureOf(refused, request)).toEqual({
      status: 422,
      body: {
        code: 422,
        message: expect.stringMatching(/^name: /),
        data: null,
        error: {
          type: 'invalid_input',
          fields: [
            { path: 'name', message: expect.any(String) },
            { path: 'cursor', message: expect.any(String) },
          ],
        },
      },
    });
    // The sync fronts name the first field refused with a message key of its own, and its reason.
    expect(syncFailureOf(refused)).toEqual({
      status: 400,
      code: 'cursor_invalid',
      messageKey: 'errors.syncCursorInvalid',
    });
  });

  test.each([
    [
      'body-parser: too large',
      Object.assign(new Error('request entity too large'), { status: 413, type: 'entity.too.large' }),
      413,
      413,
      'payload_too_large',
      'errors.payloadTooLarge',
    ],
    [
      'body-parser: not JSON',
      new HttpError(400, 'entity.parse.failed'),
      400,
      400,
      'invalid_input',
      'errors.invalidInput',
    ],
    ['JSON nested too deep', jsonTooDeep(), 400, 400, 'invalid_input', 'errors.invalidInput'],
    [
      'an unsupported charset',
      new HttpError(415, 'charset.unsupported'),
      400,
      400,
      'invalid_input',
      'errors.invalidInput',
    ],
    [
      'anything else',
      new Error('relation "secret_table" does not exist'),
      500,
      500,
      'internal',
      'errors.generic',
    ],
    ['a thrown string', 'SELECT * FROM secret_table', 500, 500, 'internal', 'errors.generic'],
  ] as const)('%s', (_what, thrown, restStatus, syncStatus, syncCode, messageKey) => {
    const rest = failureOf(thrown, request);
    expect(rest.status).toBe(restStatus);
    expect(JSON.stringify(rest.body)).not.toMatch(/secret_table|stack|entity\./);
    expect(syncFailureOf(thrown)).toEqual({ status: syncStatus, code: syncCode, messageKey });
  });
});
