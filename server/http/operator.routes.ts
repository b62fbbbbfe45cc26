import { createHash, timingSafeEqual } from 'node:crypto';
import express, { type Express, type Request, Router } from 'express';
import type { AppDeps } from '../deps.ts';
import { checkHealth } from '../health.ts';
import type { Metrics } from '../metrics.ts';
import { authorizationToken } from '../web/authorization.ts';
import { responseCompression } from './response-compression.ts';

/** Where the operator's endpoints are served: the app's own port, or METRICS_PORT's listener. */
export type OperatorListener = 'app' | 'metrics';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether the request's bearer token is METRICS_TOKEN, compared as digests: in constant time, whatever the lengths. */
function holdsMetricsToken(req: Request, token: string): boolean {
  const given = authorizationToken(req, ['Bearer']);
  return given !== null && timingSafeEqual(digest(given), digest(token));
}

/**
 * Whether the request may read /metrics and the details of /healthz: on the app's port only with
 * METRICS_TOKEN; on the metrics listener whoever reaches it, or, when a token is set, its holder.
 */
function isOperator(req: Request, token: string | undefined, listener: OperatorListener): boolean {
  if (token === undefined) return listener === 'metrics';
  return holdsMetricsToken(req, token);
}

/**
 * `/healthz` and `/metrics`. Anyone may ask /healthz whether the server is well (200 `{ ok: true }`
 * or 503 `{ ok: false }`, what container probes and load balancers read); which check failed, and
 * the metrics (queue depths, failed sign-ins, orders, the Node version), only the operator.
 */
export function operatorRoutes(deps: AppDeps, metrics: Metrics, listener: OperatorListener): Router {
  const router = Router();
  const token = deps.config.metrics.token;

  router.get('/healthz', async (req, res) => {
    const report = await checkHealth(deps);
    res.status(report.ok ? 200 : 503);
    res.setHeader('Cache-Control', 'no-store');
    res.json(isOperator(req, token, listener) ? report : { ok: report.ok });
  });

  router.get('/metrics', async (req, res) => {
    if (!isOperator(req, token, listener)) {
      // Without a token there is nothing to ask for: the metrics are not served here at all.
      if (token === undefined) return void res.status(404).json({ error: 'errors.notFound' });
      res.setHeader('WWW-Authenticate', 'Bearer');
      return void res.status(401).json({ error: 'errors.unauthorized' });
    }
    res.setHeader('Cache-Control', 'no-store');
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  return router;
}

/** The app METRICS_PORT serves: /metrics and /healthz with its details, nothing else. */
export function createMetricsApp(deps: AppDeps, metrics: Metrics): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(responseCompression());
  app.use(operatorRoutes(deps, metrics, 'metrics'));
  app.use((_req, res) => {
    res.status(404).json({ error: 'errors.notFound' });
  });
  return app;
}
