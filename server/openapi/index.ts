import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { AppError } from '../../src/errors.ts';
import { EXTENSION_CLIENT_HEADER } from '../../src/schemas/extension.ts';
import type { AppDeps } from '../deps.ts';
import { IDEMPOTENCY_KEY_MAX, onceByKey, requestFingerprint } from '../domain/openapi/idempotency.ts';
import { jsonBody } from '../web/json-body.ts';
import { publicOrigin } from '../web/public-origin.ts';
import { failureOf } from './api-errors.ts';
import { apiCaller } from './caller.ts';
import { docsRoutes } from './docs.ts';
import { openApiDocument } from './document.ts';
import { success } from './envelope.ts';
import { OPERATION_BODY_MAX, type Operation } from './operation.ts';
import { OPERATIONS } from './operations/index.ts';

/** Printable ASCII without spaces, as the Idempotency-Key draft has it. */
const IDEMPOTENCY_KEY = new RegExp(`^[\\x21-\\x7e]{1,${IDEMPOTENCY_KEY_MAX}}$`);

/** `/notes/{id}` as Express writes it. */
const expressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

function send(req: Request, res: Response, error: unknown): void {
  const failure = failureOf(error, req, res.locals.language as string | undefined);
  res.status(failure.status).json(failure.body);
}

/** Runs an Express middleware (a body parser) inside a handler: resolves when it calls next. */
function runMiddleware(middleware: RequestHandler, req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    middleware(req, res, (error?: unknown) => (error ? reject(error) : resolve()));
  });
}

/**
 * One operation's handler. The token is checked on the headers alone; only then is the body read,
 * up to the operation's own cap (413 past it), so a caller without a good token gets 401 without
 * a byte of it parsed.
 */
function answer(deps: AppDeps, op: Operation): RequestHandler {
  const readBody = op.body ? jsonBody(op.bodyMax ?? OPERATION_BODY_MAX) : null;
  return async (req, res) => {
    try {
      const em = deps.orm.em.fork();
      const user = await apiCaller(em, deps, req, res, op);
      if (readBody) await runMiddleware(readBody, req, res);
      const call = {
        em,
        queues: deps.queues,
        config: deps.config,
        user,
        deps,
        origin: publicOrigin(deps.config, req),
        params: op.params?.parse(req.params),
        query: op.query?.parse(req.query),
        body: op.body?.parse(req.body ?? {}),
      };
      const run = async () => ({
        status: op.status ?? 200,
        body: success(op.response.parse(await op.handle(call))),
      });
      const key = req.get('idempotency-key');
      let result: { status: number; body: unknown };
      if (op.method === 'post' && key !== undefined) {
        if (!IDEMPOTENCY_KEY.test(key)) throw new AppError('BAD_REQUEST', 'errors.idempotencyKeyInvalid');
        const fingerprint = requestFingerprint(op.method, req.path, call.body);
        const kept = await onceByKey(em, user, key, fingerprint, run);
        if (kept.replayed) res.setHeader('Idempotent-Replayed', 'true');
        result = kept;
      } else {
        result = await run();
      }
      res.status(result.status).json(result.body);
    } catch (error) {
      send(req, res, error);
    }
  };
}

/**
 * `/openapi`: the REST API (`/v1`, bearer tokens, the spec's envelope), its OpenAPI document
 * (`/v1/openapi.json`, generated from the operations' zod schemas) and interactive docs (`/docs`).
 * Any origin may call it: it reads no cookie, only the token it is sent.
 */
export function openApiRoutes(deps: AppDeps): Router {
  const router = express.Router();
  const v1 = express.Router();
  v1.use(apiCors);
  v1.get('/openapi.json', (_req, res) => {
    res.json(openApiDocument());
  });
  for (const op of OPERATIONS) v1[op.method](expressPath(op.path), answer(deps, op));
  v1.use((req, res) => send(req, res, new AppError('NOT_FOUND', 'errors.notFound')));
  v1.use(((error, req, res, _next) => send(req, res, error)) as express.ErrorRequestHandler);
  router.use('/openapi/v1', v1);
  router.use('/openapi/docs', docsRoutes());
  return router;
}

const apiCors: RequestHandler = (req, res, next) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader(
    'Access-Control-Expose-Headers',
    'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy, Retry-After, Idempotent-Replayed',
  );
  if (req.method !== 'OPTIONS') return next();
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PATCH, DELETE');
  res.setHeader(
    'Access-Control-Allow-Headers',
    `Authorization, Content-Type, Idempotency-Key, Accept-Language, ${EXTENSION_CLIENT_HEADER}`,
  );
  res.setHeader('Access-Control-Max-Age', '86400');
  res.status(204).end();
};
