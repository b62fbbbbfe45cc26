import type { NextFunction, Request, Response } from 'express';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Queues } from './queue.ts';

export interface Metrics {
  registry: Registry;
  middleware: (req: Request, res: Response, next: NextFunction) => void;
}

/** Route label without ids: `trpc:<procedure>` for tRPC, the matched Express route, else a bucket. */
function routeLabel(req: Request): string {
  if (req.baseUrl === '/trpc' || req.path.startsWith('/trpc/')) {
    const procedures = req.path.replace(/^\/(trpc\/)?/, '').split(',');
    return procedures.length > 1 ? 'trpc:batch' : `trpc:${procedures[0]}`;
  }
  const route = (req.route as { path?: string } | undefined)?.path;
  if (route) return `${req.baseUrl}${route}`;
  return req.method === 'GET' ? 'static' : 'unmatched';
}

export function createMetrics(queues: Queues): Metrics {
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
        const labels = { method: req.method, route: routeLabel(req), status: String(res.statusCode) };
        end(labels);
        requests.inc(labels);
      });
      next();
    },
  };
}
