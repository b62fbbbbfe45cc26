import { errorFields, log } from './log.ts';

/** The signals a process manager, `docker stop`, Ctrl-C or a closed terminal send. */
export const SHUTDOWN_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** How long requests and jobs in flight may take to finish once a stop is asked for. */
const DRAIN_MS = 6_000;

/** A step of the stop; `drainUntil` is when work in flight must be cut off (epoch ms). */
type Stop = (drainUntil: number) => Promise<void>;

/**
 * What a process has started, stopped in reverse order when it is asked to stop: the last
 * thing started is the first stopped, so requests and jobs drain before the queues, Redis and
 * the database under them go away, and everything is gone within DRAIN_MS plus a moment.
 */
export class Lifecycle {
  readonly #steps: { name: string; stop: Stop }[] = [];
  /** Starts still under way (`track`): a stop waits for them, so what they start is undone too. */
  readonly #starting: Promise<unknown>[] = [];
  #stopping: Promise<boolean> | undefined;
  #drainUntil = 0;

  /** Registers what must be undone; asked while stopping already, it is undone at once. */
  add(name: string, stop: Stop): void {
    if (this.#stopping) void this.#run({ name, stop });
    else this.#steps.push({ name, stop });
  }

  /**
   * A start that runs beside others (a redis-server, a database): once `starting` resolves, its
   * `stop` is registered as `add` does. Answers `starting`.
   */
  track<T>(
    name: string,
    starting: Promise<T>,
    stop: (started: T, drainUntil: number) => Promise<void>,
  ): Promise<T> {
    const registered = starting.then((started) => {
      this.add(name, (drainUntil) => stop(started, drainUntil));
      return started;
    });
    this.#starting.push(registered.catch(() => {}));
    return registered;
  }

  /** Stops everything once, however often it is asked; answers whether every step succeeded. */
  stop(drainMs = DRAIN_MS): Promise<boolean> {
    if (!this.#stopping) {
      this.#drainUntil = Date.now() + drainMs;
      this.#stopping = this.#stopAll();
    }
    return this.#stopping;
  }

  /** Stops on the first shutdown signal, then exits: 0 when everything stopped cleanly. */
  exitOnSignal(): void {
    const onSignal = (signal: string) => {
      if (this.#stopping) return;
      log.info('shutting down', { signal });
      void this.stop().then((clean) => {
        log.info('stopped', { clean });
        process.exit(clean ? 0 : 1);
      });
    };
    for (const signal of SHUTDOWN_SIGNALS) process.on(signal, onSignal);
  }

  async #stopAll(): Promise<boolean> {
    // A start that ends from now on is undone at once by `add`.
    await Promise.all(this.#starting);
    let clean = true;
    for (const step of this.#steps.reverse()) clean = (await this.#run(step)) && clean;
    return clean;
  }

  async #run(step: { name: string; stop: Stop }): Promise<boolean> {
    try {
      await step.stop(this.#drainUntil);
      return true;
    } catch (err) {
      log.error('stopping failed', { step: step.name, ...errorFields(err) });
      return false;
    }
  }
}

/**
 * Why the process cannot start, in words that tell the operator what to do: printed as it is,
 * without a stack.
 */
export class StartupError extends Error {}

/**
 * Starts a process's parts under `lifecycle`, which stops them on a shutdown signal; when the
 * start fails, says why, stops what had started and exits 1.
 */
export async function startProcess(lifecycle: Lifecycle, start: () => Promise<void>): Promise<void> {
  lifecycle.exitOnSignal();
  try {
    await start();
  } catch (err) {
    if (err instanceof StartupError) console.error(err.message);
    else log.error('start failed', errorFields(err));
    await lifecycle.stop(0);
    process.exit(1);
  }
}

/** Resolves after `ms`, without keeping the process alive for it. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)).unref());
}
