import type { NextFunction, Request, Response } from 'express';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { ComputePool } from './domain/compute/compute-pool.ts';
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

const EVENT_LOOP_TICK_MS = 100;
let eventLoopDelay: Histogram | undefined;

/**
 * How late the event loop runs a timer due every 100 ms: the time a request arriving then would
 * have waited before anything ran it. One histogram per process, whatever the number of apps.
 */
function eventLoopDelayHistogram(): Histogram {
  if (eventLoopDelay) return eventLoopDelay;
  const histogram = new Histogram({
    name: 'event_loop_delay_seconds',
    help: 'How late the event loop ran a timer due every 100 ms',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [],
  });
  let due = performance.now() + EVENT_LOOP_TICK_MS;
  setInterval(() => {
    const now = performance.now();
    histogram.observe(Math.max(0, now - due) / 1000);
    due = now + EVENT_LOOP_TICK_MS;
  }, EVENT_LOOP_TICK_MS).unref();
  eventLoopDelay = histogram;
  return histogram;
}

/** The compute pool's tasks by outcome, the thread time they took, and its load now. */
function registerComputeMetrics(registry: Registry, compute: ComputePool): void {
  const tasks = new Counter({
    name: 'compute_tasks_total',
    help: 'Compute pool tasks by task and outcome',
    labelNames: ['task', 'outcome'],
    registers: [registry],
  });
  const seconds = new Counter({
    name: 'compute_thread_seconds_total',
    help: 'Thread time compute pool tasks took, by task',
    labelNames: ['task'],
    registers: [registry],
  });
  new Gauge({
    name: 'compute_tasks',
    help: 'Compute pool tasks running and waiting',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const { running, waiting } = compute.load;
      this.set({ state: 'running' }, running);
      this.set({ state: 'waiting' }, waiting);
    },
  });
  compute.observe((task, outcome, ms) => {
    tasks.inc({ task, outcome });
    seconds.inc({ task }, ms / 1000);
  });
}

/** `procedures`: every procedure path of the app router, the only ones that get labels of their own. */
export function createMetrics(queues: Queues, procedures: Iterable<string>, compute: ComputePool): Metrics {
  const known = new Set(procedures);
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registry.registerMetric(eventLoopDelayHistogram());
  registerComputeMetrics(registry, compute);
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
