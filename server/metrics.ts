import type { NextFunction, Request, Response } from 'express';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Queues } from './queue.ts';

export interface Metrics {
  registry: Registry;
  middleware: (req: Request, res: Response, next: NextFunction) => void;
}

/** The label every request outside the route table shares, so no request can add a label. */
const UNMATCHED_ROUTE = 'unmatched';

/**
 * A request's route label, taken only from the app's own route table: `trpc:<procedure>` for a
 * procedure the router has (`trpc:batch` for several at once), the Express route that matched
 * under its mount, `static` for a file of the client build, else UNMATCHED_ROUTE. Express
 * matches mount paths in any case, so the mount is lowercased: ours are lowercase literals.
 */
function routeLabel(req: Request, procedures: ReadonlySet<string>): string {
  const pathname = req.originalUrl.split('?', 1)[0] ?? '';
  if (/^\/trpc\//i.test(pathname)) {
    const names = pathname.slice('/trpc/'.length).split(',');
    if (names.length > 1) return 'trpc:batch';
    return procedures.has(names[0] ?? '') ? `trpc:${names[0]}` : UNMATCHED_ROUTE;
  }
  const route = (req.route as { path?: unknown } | undefined)?.path;
  if (route !== undefined) return `${req.baseUrl.toLowerCase()}${String(route)}`;
  return req.method === 'GET' ? 'static' : UNMATCHED_ROUTE;
}

/** `procedures`: every procedure path of the app router, the only ones that get labels of their own. */
export function createMetrics(queues: Queues, procedures: Iterable<string>): Metrics {
  const known = new Set(procedures);
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by route',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  new Gauge({
    name: 'queue_jobs',
    help: 'BullMQ jobs by queue and state',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      for (const queue of Object.values(queues)) {
        const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed');
        for (const [state, count] of Object.entries(counts)) this.set({ queue: queue.name, state }, count);
      }
    },
  });
  return {
    registry,
    middleware(req, res, next) {
      const end = duration.startTimer();
      res.on('finish', () => {
        const labels = { method: req.method, route: routeLabel(req, known), status: String(res.statusCode) };
        end(labels);
        requests.inc(labels);
      });
      next();
    },
  };
}
