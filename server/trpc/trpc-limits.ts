import {
  type AnyTRPCRouter,
  getTRPCErrorShape,
  type inferRouterInputs,
  TRPCError,
  transformTRPCResponse,
} from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError } from '../../src/errors.ts';
import { TRPC_MAX_BATCH_SIZE } from '../../src/http-limits.ts';
import { DAILY_TEXT_MAX } from '../../src/schemas/daily.ts';
import { appErrorOfStatus } from '../web/error-fallback.ts';
import { HttpError, jsonBody, jsonDepthExceeds, jsonTooDeep } from '../web/json-body.ts';
import type { AppRouter } from './app.router.ts';

type Inputs = inferRouterInputs<AppRouter>;
/** `router.procedure`, as a tRPC URL names it: a renamed procedure is a type error here. */
type ProcedurePath = { [R in keyof Inputs]: `${R & string}.${keyof Inputs[R] & string}` }[keyof Inputs];

// What a tRPC request may weigh before any procedure sees it: a body cap that fits the calls it
// names, the JSON nesting limit (../web/json-body.ts), and errors in tRPC's own envelope so the
// client reads them like any procedure's.

const KB = 1024;
const MB = 1024 * KB;

/** The most any request body may be: clipped HTML from the extension is the largest input. */
export const TRPC_BODY_MAX = 6 * MB;

/**
 * A call's share of the body. A JSON string costs at most 3 bytes per UTF-16 unit (CJK), so
 * 256 KB holds the largest ordinary input (a highlight: text, annotation and quote of 20,000
 * characters each, ~200 KB in CJK); an autosave carries the day's text twice.
 */
export const BODY_LIMIT_DEFAULT = 256 * KB;
const BODY_LIMITS: Readonly<Partial<Record<ProcedurePath, number>>> = {
  'notes.clipHtml': TRPC_BODY_MAX,
  'daily.save': 2 * DAILY_TEXT_MAX * 3 + 64 * KB,
};

/** The procedure paths a tRPC URL names (`a.b` or, batched, `a.b,c.d`), as tRPC reads them. */
function procedurePaths(requestPath: string): string[] {
  return requestPath.slice(requestPath.lastIndexOf('/') + 1).split(',');
}

/**
 * The body a request may send: each call it names brings its own share, up to the batch size
 * tRPC accepts (more is refused anyway) and never past TRPC_BODY_MAX.
 */
export function bodyLimitFor(requestPath: string): number {
  const shares = procedurePaths(requestPath)
    .slice(0, TRPC_MAX_BATCH_SIZE)
    .map((path) => BODY_LIMITS[path as ProcedurePath] ?? BODY_LIMIT_DEFAULT);
  return Math.min(
    TRPC_BODY_MAX,
    shares.reduce((sum, share) => sum + share, 0),
  );
}

const TOO_MANY_CALLS = 'batch.too.large';

/** A batch naming more calls than tRPC's maxBatchSize is refused before any body is read. */
export const trpcBatchSize: RequestHandler = (req, _res, next) => {
  next(
    procedurePaths(req.path).length > TRPC_MAX_BATCH_SIZE ? new HttpError(400, TOO_MANY_CALLS) : undefined,
  );
};

/** express.json with the body cap of the procedures a request names and the depth limit. */
export function trpcJsonBody(): RequestHandler {
  const parsers = new Map<number, RequestHandler>();
  const parserFor = (limit: number) => {
    let parser = parsers.get(limit);
    if (!parser) {
      parser = jsonBody(limit);
      parsers.set(limit, parser);
    }
    return parser;
  };
  return (req, res, next) => parserFor(bodyLimitFor(req.path))(req, res, next);
}

const notJson = () => new HttpError(400, 'entity.parse.failed');

/**
 * A query's `input` parameter (bounded by the URL's length): not deeper than the limit, and
 * JSON even where the procedure takes no input and tRPC would never read it.
 */
export const trpcQueryInput: RequestHandler = (req, _res, next) => {
  const query = req.originalUrl.indexOf('?');
  const input = query < 0 ? null : new URLSearchParams(req.originalUrl.slice(query + 1)).get('input');
  if (input === null) return next();
  if (jsonDepthExceeds(input)) return next(jsonTooDeep());
  try {
    JSON.parse(input);
  } catch {
    return next(notJson());
  }
  next();
};

/** HTTP errors before tRPC (too many calls, body too large, not JSON, too deep) as tRPC errors with a message key. */
function asTrpcError(err: { status: number; type?: unknown }): TRPCError {
  if (err.type === TOO_MANY_CALLS) {
    const cause = new AppError('BAD_REQUEST', 'errors.tooManyCalls', { max: TRPC_MAX_BATCH_SIZE });
    return new TRPCError({ code: 'BAD_REQUEST', cause });
  }
  const cause = appErrorOfStatus(err.status);
  if (err.status === 413) return new TRPCError({ code: 'PAYLOAD_TOO_LARGE', cause });
  if (err.type === 'entity.parse.failed') return new TRPCError({ code: 'PARSE_ERROR', cause });
  if (err.status === 415) return new TRPCError({ code: 'UNSUPPORTED_MEDIA_TYPE', cause });
  return new TRPCError({ code: 'BAD_REQUEST', cause });
}

/**
 * The /trpc error handler: a 4xx raised before tRPC answers in tRPC's envelope (so the client
 * shows its message); anything else goes on to the app's handler.
 */
export function trpcHttpErrors(router: AnyTRPCRouter): ErrorRequestHandler {
  const config = router._def._config;
  return (err, req, res, next) => {
    const status: unknown = err?.status ?? err?.statusCode;
    if (res.headersSent || typeof status !== 'number' || status < 400 || status >= 500) {
      next(err);
      return;
    }
    const error = asTrpcError({ status, type: err.type });
    const shape = getTRPCErrorShape({
      config,
      error,
      type: 'unknown',
      path: procedurePaths(req.path).join(','),
      input: undefined,
      ctx: undefined,
    });
    res.status(getHTTPStatusCodeFromError(error)).json(transformTRPCResponse(config, { error: shape }));
  };
}
