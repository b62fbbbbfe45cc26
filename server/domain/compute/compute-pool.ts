import type { Redis } from 'ioredis';
import { Piscina } from 'piscina';
import { AppError } from '../../../src/errors.ts';
import { clock } from '../../clock.ts';
import type { ComputeOutcome, ComputeTask, ComputeValues } from './compute-tasks.ts';

// Every piece of CPU-heavy work whose cost a user controls runs here, in worker threads, on a
// budget: a request (a sync download, a preview, an export, one push run) spends at most its own
// budget of thread time, however many notes it renders, and a user at most PER_USER_MS_PER_MINUTE
// across every server sharing the Redis. A user's tasks run one at a time and users take turns,
// so one user's templates never hold a thread another user is waiting for.

/** Thread CPU time one request may spend, by kind of request. */
export const COMPUTE_BUDGET_MS = {
  /** A sync download, a preview, a template save, a note's Markdown. */
  request: 3_000,
  /** The whole library as a Markdown zip. */
  export: 60_000,
  /** One run of a push to flomo, WorkFlowy or SiYuan. */
  push: 30_000,
} as const;
export type ComputeBudgetKind = keyof typeof COMPUTE_BUDGET_MS;

/** One thread's worth, per user and minute, whatever the number of servers. */
const PER_USER_MS_PER_MINUTE = 60_000;
/** A user's tasks waiting behind their running one; more are refused as too many. */
const WAITING_PER_USER_MAX = 8;
const TERMINATE_GRACE_MS = 2_000;
/**
 * A budget is CPU time, and the pool's threads yield the cores to the server: past this many
 * times its budget in wall time (and the grace), a task is terminated whatever it was doing.
 */
const WALL_TIME_FACTOR = 10;
const MINUTE_MS = 60_000;

export interface ComputePoolOptions {
  /** Worker threads (started when first needed). */
  size: number;
  redis: Redis;
  redisPrefix: string;
  /** Past its budget, how long a task may take to stop by itself before its thread is terminated. */
  terminateGraceMs?: number;
}

/** How a task ended: done, refused before it ran (busy), stopped at its budget, or failed. */
export type ComputeTaskOutcome = 'ok' | 'refused' | 'budget' | 'error';
type TaskObserver = (task: ComputeTask['name'], outcome: ComputeTaskOutcome, threadMs: number) => void;

interface Waiting {
  run(): Promise<void>;
  cancel(): void;
}

/** What a request spends: the pool's tasks charged to one user and one budget. */
export class ComputeBudget {
  readonly #pool: ComputePool;
  readonly userId: number;
  readonly limitMs: number;
  #spentMs = 0;

  constructor(pool: ComputePool, userId: number, limitMs: number) {
    this.#pool = pool;
    this.userId = userId;
    this.limitMs = limitMs;
  }

  get leftMs(): number {
    return this.limitMs - this.#spentMs;
  }

  charge(ms: number): void {
    this.#spentMs += ms;
  }

  run<T extends ComputeTask>(task: T): Promise<ComputeValues[T['name']]> {
    return this.#pool.run(this, task) as Promise<ComputeValues[T['name']]>;
  }
}

/** The request's budget is spent: its templates are too slow for one request. */
function budgetSpent(budget: ComputeBudget): AppError {
  return new AppError(
    'BAD_REQUEST',
    'errors.renderBudgetExceeded',
    { seconds: Math.round(budget.limitMs / 100) / 10 },
    { reason: 'budgetExceeded' },
  );
}

export class ComputePool {
  readonly #threads: Piscina<{ task: ComputeTask; budgetMs: number }, ComputeOutcome>;
  readonly #size: number;
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #graceMs: number;
  /** Users with tasks waiting, in turn order; each user's own tasks in arrival order. */
  readonly #waiting = new Map<number, Waiting[]>();
  readonly #runningUsers = new Set<number>();
  readonly #observers: TaskObserver[] = [];
  #closed = false;

  constructor(options: ComputePoolOptions) {
    this.#size = Math.max(1, options.size);
    this.#redis = options.redis;
    this.#prefix = options.redisPrefix;
    this.#graceMs = options.terminateGraceMs ?? TERMINATE_GRACE_MS;
    this.#threads = new Piscina({
      filename: new URL('./compute-tasks.ts', import.meta.url).href,
      minThreads: 0,
      maxThreads: this.#size,
      idleTimeout: 30_000,
      // Below the event loop's priority: under load the server's own thread is served first.
      // (5, not more: at 10 a machine busy with other work starved the threads of legitimate work.)
      niceIncrement: 5,
      resourceLimits: { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 32 },
    });
  }

  /** Tasks on a thread now, and tasks waiting for one. */
  get load(): { running: number; waiting: number } {
    let waiting = 0;
    for (const queue of this.#waiting.values()) waiting += queue.length;
    return { running: this.#runningUsers.size, waiting };
  }

  /** Calls `observer` as each task ends (the metrics). */
  observe(observer: TaskObserver): void {
    this.#observers.push(observer);
  }

  budget(userId: number, kind: ComputeBudgetKind): ComputeBudget {
    return new ComputeBudget(this, userId, COMPUTE_BUDGET_MS[kind]);
  }

  async run(budget: ComputeBudget, task: ComputeTask): Promise<unknown> {
    let outcome: ComputeOutcome;
    try {
      outcome = await this.#queued(budget, task);
    } catch (error) {
      this.#report(task, error instanceof AppError ? 'refused' : 'error', 0);
      throw error;
    }
    budget.charge(outcome.elapsedMs);
    await this.#chargeUserMinute(budget.userId, outcome.elapsedMs);
    this.#report(
      task,
      outcome.ok ? 'ok' : outcome.error === 'budget' ? 'budget' : 'error',
      outcome.elapsedMs,
    );
    if (outcome.ok) return outcome.value;
    if (outcome.error === 'budget') throw budgetSpent(budget);
    const { code, messageKey, params, reason } = outcome.error;
    throw new AppError(code, messageKey, params, { reason });
  }

  /** The task's outcome once it has had its turn on a thread; refused when the user is over a limit. */
  async #queued(budget: ComputeBudget, task: ComputeTask): Promise<ComputeOutcome> {
    if (this.#closed) throw new AppError('INTERNAL');
    if (budget.leftMs <= 0) throw budgetSpent(budget);
    await this.#checkUserMinute(budget.userId);
    return new Promise<ComputeOutcome>((resolve, reject) => {
      // Counted and queued in one synchronous step, so parallel calls cannot all pass the check.
      const queue = this.#waiting.get(budget.userId) ?? [];
      if (queue.length >= WAITING_PER_USER_MAX) {
        reject(new AppError('TOO_MANY_REQUESTS', 'errors.computeBusy'));
        return;
      }
      queue.push({
        run: () => this.#perform(budget, task).then(resolve, reject),
        cancel: () => reject(new AppError('INTERNAL')),
      });
      this.#waiting.set(budget.userId, queue);
      this.#dispatch();
    });
  }

  #report(task: ComputeTask, outcome: ComputeTaskOutcome, threadMs: number): void {
    for (const observer of this.#observers) observer(task.name, outcome, threadMs);
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const queue of this.#waiting.values()) for (const waiting of queue) waiting.cancel();
    this.#waiting.clear();
    await this.#threads.destroy();
  }

  /** Starts the next waiting user's task while threads are free, users taking turns. */
  #dispatch(): void {
    for (const [userId, queue] of this.#waiting) {
      if (this.#runningUsers.size >= this.#size) return;
      if (this.#runningUsers.has(userId)) continue;
      const next = queue.shift()!;
      if (!queue.length) this.#waiting.delete(userId);
      this.#runningUsers.add(userId);
      void next.run().finally(() => {
        this.#runningUsers.delete(userId);
        // To the back of the turn order: the next free thread goes to the users who waited.
        const rest = this.#waiting.get(userId);
        if (rest) {
          this.#waiting.delete(userId);
          this.#waiting.set(userId, rest);
        }
        this.#dispatch();
      });
    }
  }

  async #perform(budget: ComputeBudget, task: ComputeTask): Promise<ComputeOutcome> {
    const budgetMs = budget.leftMs;
    const started = performance.now();
    try {
      return await this.#threads.run(
        { task, budgetMs },
        { signal: AbortSignal.timeout(Math.ceil(budgetMs * WALL_TIME_FACTOR + this.#graceMs)) },
      );
    } catch (error) {
      // Terminated past its budget (work that never checks it), or its thread ran out of memory.
      if ((error as Error).name === 'AbortError') {
        return { ok: false, error: 'budget', elapsedMs: budgetMs };
      }
      if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        return {
          ok: false,
          error: { code: 'PAYLOAD_TOO_LARGE', messageKey: 'errors.computeTooLarge' },
          elapsedMs: performance.now() - started,
        };
      }
      throw error;
    }
  }

  #minuteKey(userId: number): string {
    return `${this.#prefix}:compute:${userId}:${Math.floor(clock.now().getTime() / MINUTE_MS)}`;
  }

  async #checkUserMinute(userId: number): Promise<void> {
    const used = Number(await this.#redis.get(this.#minuteKey(userId)));
    if (used >= PER_USER_MS_PER_MINUTE) throw new AppError('TOO_MANY_REQUESTS', 'errors.computeBusy');
  }

  async #chargeUserMinute(userId: number, ms: number): Promise<void> {
    const key = this.#minuteKey(userId);
    await this.#redis
      .multi()
      .incrby(key, Math.ceil(ms))
      .pexpire(key, 2 * MINUTE_MS)
      .exec();
  }
}
