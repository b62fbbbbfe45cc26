import { createExpressMiddleware } from '@trpc/server/adapters/express';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import { TRPC_MAX_BATCH_SIZE } from '../src/http-limits.ts';
import type { AppDeps } from './deps.ts';
import { paymentProviders } from './domain/membership/providers/index.ts';
import { downloadRoutes } from './http/downloads.routes.ts';
import { exportRoutes } from './http/export.routes.ts';
import { filesRoutes } from './http/files.routes.ts';
import { oidcRoutes } from './http/oidc.routes.ts';
import { operatorRoutes } from './http/operator.routes.ts';
import { paymentRoutes } from './http/payment.routes.ts';
import { responseCompression } from './http/response-compression.ts';
import { securityHeaders } from './http/security-headers.ts';
import { servedHostOnly } from './http/served-host.ts';
import { uploadRoutes } from './http/upload.routes.ts';
import { errorFields, log } from './log.ts';
import { createMetrics, type Metrics } from './metrics.ts';
import { openApiRoutes } from './openapi/index.ts';
import { clientRouter } from './static.ts';
import { syncRoutes } from './sync/index.ts';
import { appRouter } from './trpc/app.router.ts';
import { bootData } from './trpc/boot-data.ts';
import { type Context, requestContext } from './trpc/context.ts';
import { jsonTextAnswers } from './trpc/json-text-answers.ts';
import {
  TRPC_BODY_MAX,
  trpcBatchSize,
  trpcHttpErrors,
  trpcJsonBody,
  trpcQueryInput,
} from './trpc/trpc-limits.ts';

/**
 * tRPC mutations are POSTs with a JSON body. Refusing any other content type means a plain
 * cross-site form (which cannot send application/json without a CORS preflight) cannot act
 * with the user's cookie.
 */
const requireJsonMutations: RequestHandler = (req, _res, next) => {
  if (req.method === 'POST' && !req.is('application/json')) {
    next(Object.assign(new Error('unsupported media type'), { status: 415 }));
    return;
  }
  next();
};

/** The request metrics of one process: the app's and the metrics listener's (METRICS_PORT) registry. */
export function appMetrics(deps: AppDeps): Metrics {
  return createMetrics(deps.queues, Object.keys(appRouter._def.procedures), deps.compute);
}

/** Builds the Express app without listening: the supertest target and what main.ts serves. */
export function createApp(deps: AppDeps, metrics = appMetrics(deps)): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.trustProxy);
  paymentProviders(deps.config.payments);

  app.use(metrics.middleware);
  app.use(securityHeaders(deps.config));
  app.use(responseCompression());

  // Before the Host check: probes and scrapers name the server as they reach it, and get no links.
  app.use(operatorRoutes(deps, metrics, 'app'));
  app.use(servedHostOnly(deps.config));

  // Bodies capped by the calls they carry (6 MB only for clipped HTML), JSON at most 64 levels
  // deep in bodies and in a query's input, at most 20 calls a batch; errors before tRPC answer
  // in its envelope (server/trpc/trpc-limits.ts).
  app.use(
    '/trpc',
    requireJsonMutations,
    trpcBatchSize,
    trpcJsonBody(),
    trpcQueryInput,
    jsonTextAnswers(deps),
    createExpressMiddleware({
      router: appRouter,
      maxBatchSize: TRPC_MAX_BATCH_SIZE,
      maxBodySize: TRPC_BODY_MAX,
      createContext: ({ req, res }): Promise<Context> => requestContext(deps, req, res),
      onError({ error, path }) {
        if (error.code === 'INTERNAL_SERVER_ERROR')
          log.error('procedure failed', { path, ...errorFields(error.cause ?? error) });
      },
    }),
    trpcHttpErrors(appRouter),
  );

  app.use('/auth/oidc', oidcRoutes(deps));

  // The note-tool plugins' pull API: JSON bodies of their own (64 KB), token auth, its own errors.
  app.use(syncRoutes(deps));
  app.use(openApiRoutes(deps));
  app.use('/api/export', exportRoutes(deps));
  // Payment providers' notifications: raw signed bodies, answered in each provider's format.
  app.use(paymentRoutes(deps));
  // The local store's upload target: signed multipart forms, up to 10 MB.
  app.use(uploadRoutes(deps));
  // What this server built for its users to install: the extension and the note-tool plugins.
  app.use(downloadRoutes(deps.config));
  // The images stored with notes, to their owner only.
  app.use(filesRoutes(deps));

  app.use(clientRouter(deps.config, (req, res) => bootData(deps, req, res)));

  // A client's mistake keeps its 4xx (bad JSON is a 400, not a 500); only the rest is logged.
  const errorHandler: ErrorRequestHandler = (err, _req, res, _next) => {
    const status =
      typeof err?.status === 'number' && err.status >= 400 && err.status < 500 ? err.status : 500;
    if (status === 500) log.error('request failed', errorFields(err));
    const error =
      status === 413 ? 'errors.payloadTooLarge' : status === 500 ? 'errors.generic' : 'errors.invalidInput';
    res.status(status).json({ error });
  };
  app.use(errorHandler);
  return app;
}
