import { Worker } from 'node:worker_threads';
import type { ExtractedArticle } from './extract/index.ts';
import type { ExtractionReply, ExtractionRequest } from './extract-worker.ts';

// Runs the CPU-bound part of a clip off the event loop in a pool of worker threads: the article
// extracted (extractArticle) and its body sanitised. Pages beyond the threads wait in the pool's
// queue. Each worker has a heap cap; a job that runs past its time limit has its worker terminated
// (and replaced), and a page that exhausts the heap kills only its worker. Either way the caller
// gets a typed error.

const ExtractionFailureReason = {
  timeout: 'timeout',
  tooLarge: 'too-large',
  outOfMemory: 'out-of-memory',
  error: 'error',
} as const;
export type ExtractionFailureReason = (typeof ExtractionFailureReason)[keyof typeof ExtractionFailureReason];

export class ExtractionFailedError extends Error {
  readonly reason: ExtractionFailureReason;
  constructor(
    reason: ExtractionFailureReason,
    message = 'Article extraction failed',
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'ExtractionFailedError';
    this.reason = reason;
  }
}

export class ExtractionTimeoutError extends ExtractionFailedError {
  readonly timeoutMs: number;
  constructor(timeoutMs: number) {
    super(ExtractionFailureReason.timeout, `Article extraction took longer than ${timeoutMs} ms`);
    this.name = 'ExtractionTimeoutError';
    this.timeoutMs = timeoutMs;
  }
}

export type ExtractionPoolOptions = {
  /** Worker threads kept (started lazily). */
  size?: number;
  /** Per-page time limit. */
  timeoutMs?: number;
  /** Old-generation heap cap of each worker. */
  maxHeapMb?: number;
  /** Larger documents are refused without being parsed. */
  maxHtmlLength?: number;
};

/** An extracted article whose body HTML is sanitised (./sanitize.ts) and storable. */
export type SanitisedArticle = ExtractedArticle;

type Job = ExtractionRequest & {
  resolve: (article: SanitisedArticle) => void;
  reject: (error: ExtractionFailedError) => void;
};

const WORKER_ENTRY = new URL('./extract-worker.ts', import.meta.url);
const DEFAULTS = { size: 2, timeoutMs: 20_000, maxHeapMb: 256, maxHtmlLength: 10_000_000 } as const;
// Parsing allocates many short-lived nodes: 64 MB rather than 32 means fewer scavenges, about 10%
// less CPU per corpus page.
const YOUNG_GENERATION_MB = 64;
const WORKER_STARTUP_LIMIT_MS = 10_000;

export class ExtractionPool {
  readonly #size: number;
  readonly #timeoutMs: number;
  readonly #maxHeapMb: number;
  readonly #maxHtmlLength: number;
  readonly #idle: Worker[] = [];
  readonly #busy = new Set<Worker>();
  readonly #queue: Job[] = [];
  #nextId = 1;
  #closed = false;

  constructor(options: ExtractionPoolOptions = {}) {
    this.#size = Math.max(1, options.size ?? DEFAULTS.size);
    this.#timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
    this.#maxHeapMb = options.maxHeapMb ?? DEFAULTS.maxHeapMb;
    this.#maxHtmlLength = options.maxHtmlLength ?? DEFAULTS.maxHtmlLength;
  }

  extract(html: string, url: string): Promise<SanitisedArticle> {
    if (this.#closed) return Promise.reject(new ExtractionFailedError(ExtractionFailureReason.error));
    if (html.length > this.#maxHtmlLength) {
      return Promise.reject(
        new ExtractionFailedError(ExtractionFailureReason.tooLarge, 'Page is too large to extract'),
      );
    }
    return new Promise((resolve, reject) => {
      this.#queue.push({ id: this.#nextId++, html, url, resolve, reject });
      this.#dispatchQueued();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0))
      job.reject(new ExtractionFailedError(ExtractionFailureReason.error));
    await Promise.all([...this.#idle.splice(0), ...this.#busy].map((worker) => worker.terminate()));
  }

  #dispatchQueued(): void {
    while (this.#queue.length > 0 && !this.#closed) {
      const worker = this.#idle.pop() ?? (this.#busy.size < this.#size ? this.#spawn() : null);
      if (!worker) return;
      this.#run(worker, this.#queue.shift()!);
    }
  }

  #spawn(): Worker {
    const worker = new Worker(WORKER_ENTRY, {
      // An explicit young-generation cap matters: with V8's default sizing, a page that
      // allocates fast can abort the whole process instead of only the worker (nodejs/node#47224).
      resourceLimits: {
        maxOldGenerationSizeMb: this.#maxHeapMb,
        maxYoungGenerationSizeMb: YOUNG_GENERATION_MB,
      },
    });
    worker.once('exit', () => {
      const idleIndex = this.#idle.indexOf(worker);
      if (idleIndex >= 0) this.#idle.splice(idleIndex, 1);
    });
    // Idle workers must not keep the process alive; a running job's timer does.
    worker.unref();
    return worker;
  }

  #run(worker: Worker, job: Job): void {
    this.#busy.add(worker);
    let settled = false;
    const finish = (outcome: { article: SanitisedArticle } | { error: ExtractionFailedError }): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if ('article' in outcome) {
        job.resolve(outcome.article);
        this.#busy.delete(worker);
        if (this.#closed) void worker.terminate();
        else this.#idle.push(worker);
      } else {
        job.reject(outcome.error);
        this.#busy.delete(worker);
        void worker.terminate();
      }
      this.#dispatchQueued();
    };
    const onMessage = (reply: ExtractionReply): void => {
      if (reply.id !== job.id) return;
      if ('started' in reply) {
        clearTimeout(timer);
        timer = startTimer();
      } else if (reply.ok) finish({ article: reply.article });
      else finish({ error: new ExtractionFailedError(ExtractionFailureReason.error) });
    };
    const onError = (error: Error & { code?: string }): void => {
      const reason =
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? ExtractionFailureReason.outOfMemory
          : ExtractionFailureReason.error;
      finish({ error: new ExtractionFailedError(reason, undefined, { cause: error }) });
    };
    const onExit = (): void => finish({ error: new ExtractionFailedError(ExtractionFailureReason.error) });
    // The job's clock starts when the worker reports it has begun (a fresh worker first loads its
    // modules); until then a separate start-up limit guards against a worker that never gets ready.
    const startTimer = (limitMs = this.#timeoutMs): NodeJS.Timeout =>
      setTimeout(() => finish({ error: new ExtractionTimeoutError(limitMs) }), limitMs);
    let timer = startTimer(Math.max(this.#timeoutMs, WORKER_STARTUP_LIMIT_MS));
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage({ id: job.id, html: job.html, url: job.url } satisfies ExtractionRequest);
  }
}
