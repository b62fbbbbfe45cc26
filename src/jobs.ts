import { z } from 'zod';
import { PUSH_APPS } from './schemas/sync.ts';
import { SEARCH_TOKENS_VERSION } from './search/tokens.ts';

// The one job registry: every queue, every job on it (its BullMQ name, payload schema, job id,
// retry options and schedule). Producers add jobs only through `enqueue` (server/queue.ts), which
// parses the payload with the job's schema; workers parse `job.data` with the same schema before
// a processor runs (jobs/job-processor.ts). Nothing else spells a queue name or builds a job id.

export const QUEUES = {
  clip: 'clip',
  images: 'images',
  mail: 'mail',
  maintenance: 'maintenance',
  push: 'push',
  webhook: 'webhook',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];
export const QUEUE_NAMES = Object.values(QUEUES) as QueueName[];

/** How many jobs of each queue one worker process runs at once; clips: CLIP_CONCURRENCY (server/config.ts). */
export const QUEUE_CONCURRENCY: Readonly<Record<Exclude<QueueName, typeof QUEUES.clip>, number>> = {
  // Storing a note's images mostly waits on the sites serving them.
  [QUEUES.images]: 4,
  [QUEUES.mail]: 4,
  [QUEUES.maintenance]: 1,
  // Pushes mostly wait on the note tools (flomo is paced at a post a second).
  [QUEUES.push]: 8,
  // Deliveries wait on the receivers (10 s at most each); one endpoint's run at a time.
  [QUEUES.webhook]: 8,
};

/** The BullMQ job options the registry sets (a subset of BullMQ's `JobsOptions`). */
export interface JobOptions {
  attempts: number;
  backoff: { type: 'exponential' | 'fixed'; delay: number };
  /**
   * `true`: the job is gone from Redis the moment it succeeds. Otherwise finished jobs are kept
   * at most `age` seconds and `count` of them per queue, so Redis (and its append-only file)
   * stays small however many jobs run.
   */
  removeOnComplete: true | { age: number; count: number };
  removeOnFail: { age: number; count: number };
}

/** Retries with exponential backoff; the last 1,000 failures stay visible for two weeks. */
export const DEFAULT_JOB_OPTIONS = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 2_000 },
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: { age: 14 * 24 * 3600, count: 1000 },
} as const satisfies JobOptions;

export interface JobSpec<S extends z.ZodType = z.ZodType, Q extends QueueName = QueueName> {
  queue: Q;
  /** The BullMQ job name, which the worker of the queue dispatches on. */
  name: string;
  /** Parsed by `enqueue` before the job is added and by the worker before the processor runs. */
  payload: S;
  /**
   * The job id, derived from the payload: adding a job whose id exists is a no-op (BullMQ dedupes
   * by id), so a retried enqueue never runs the work twice. For a scheduled job, the scheduler's id.
   */
  jobId(payload: z.output<S>): string;
  options: JobOptions;
  /** Run repeatedly by a BullMQ job scheduler, which the workers upsert as they start. */
  schedule?: { every: number };
  /**
   * Debounced: `jobId` is then the key of BullMQ's deduplication, not a job's own id. While a job
   * of that key waits (for its delay or a retry), adding another is a no-op; while one runs, one
   * more is kept and starts when it ends, so two never run at once. Each job gets a fresh BullMQ
   * id, since a finished job's id would turn the next one away.
   */
  debounced?: boolean;
  /**
   * Whom the job is about: deleting an account removes, in every state, each job about it (its
   * id) or about one of its verification codes (the code's id), so none outlives the account.
   */
  about?(payload: z.output<S>): JobSubject;
}

/** What a job names: an account, a verification code. */
export interface JobSubject {
  userId?: number;
  codeId?: number;
}

function defineJob<S extends z.ZodType, Q extends QueueName>(spec: JobSpec<S, Q>): JobSpec<S, Q> {
  return spec;
}

/** A mail as the mailer sends it. */
export const zMailJob = z.object({
  to: z.email(),
  /** Where a reply goes when not to the sender (feedback: the contact the user gave). */
  replyTo: z.email().optional(),
  subject: z.string().min(1),
  text: z.string().min(1),
  html: z.string().optional(),
});
export type MailJob = z.infer<typeof zMailJob>;

/**
 * A mail written when it is queued, with a key naming what it is about (one job, so one mail,
 * per key) and the account it concerns, if any.
 */
export const zMessageMailJob = zMailJob.extend({
  kind: z.literal('message').optional(),
  key: z.string().regex(/^[\w-]{1,128}$/),
  userId: z.number().int().positive().optional(),
});

/**
 * A verification code's mail, written as it is sent (server/domain/auth/codes.service.ts): the
 * address, the purpose and the key that opens `sealedCode` are in the code's row, so Redis holds
 * neither the address nor the code, and once the code is used, replaced or deleted the job mails nothing.
 */
export const zCodeMailJob = z.object({
  kind: z.literal('code'),
  codeId: z.number().int().positive(),
  sealedCode: z.string().regex(/^[\w-]{1,200}$/),
  language: z.string().max(16).nullable(),
});
export type CodeMailJob = z.infer<typeof zCodeMailJob>;

export const zMailJobPayload = z.union([zCodeMailJob, zMessageMailJob]);

/** Each clip attempt is its own job: `attempt` is the note's clip_attempts when it was queued. */
export const zClipJob = z.object({
  noteId: z.string().min(1).max(32),
  attempt: z.number().int().nonnegative(),
});
export type ClipJob = z.infer<typeof zClipJob>;

/** Store the images of one clip attempt's content (queued when the clip is done, or by the reader). */
export const zStoreImagesJob = z.object({
  noteId: z.string().min(1).max(32),
  attempt: z.number().int().nonnegative(),
});
export type StoreImagesJob = z.infer<typeof zStoreImagesJob>;

/** Remove the stored files of a user's notes deleted for good. */
export const zPurgeStoredFilesJob = z.object({ userId: z.number().int().positive() });

export const zDeleteUserFilesJob = z.object({ userId: z.number().int().positive() });

/** Push a user's highlights to one connected note tool (flomo, WorkFlowy, SiYuan). */
export const zPushJob = z.object({
  userId: z.number().int().positive(),
  app: z.enum(PUSH_APPS),
});
export type PushJob = z.infer<typeof zPushJob>;

/** Send one webhook endpoint's waiting deliveries, in order. */
export const zWebhookDeliverJob = z.object({ endpointId: z.string().min(1).max(32) });

/** Maintenance jobs that carry nothing. */
const zNoPayload = z.object({});

const HOUR = 60 * 60_000;

export const JOBS = {
  clip: defineJob({
    queue: QUEUES.clip,
    name: 'clip',
    payload: zClipJob,
    jobId: ({ noteId, attempt }) => `clip-${noteId}-${attempt}`,
    options: DEFAULT_JOB_OPTIONS,
  }),
  /**
   * One per clip attempt: re-running it stores nothing twice (an image already stored for the
   * note is known by its address and content hash).
   */
  storeImages: defineJob({
    queue: QUEUES.images,
    name: 'store-images',
    payload: zStoreImagesJob,
    jobId: ({ noteId, attempt }) => `images-${noteId}-${attempt}`,
    options: { ...DEFAULT_JOB_OPTIONS, attempts: 4, backoff: { type: 'exponential', delay: 5_000 } },
  }),
  /** Debounced per user: queued after notes are deleted for good; the hourly purge sweeps up too. */
  purgeStoredFiles: defineJob({
    queue: QUEUES.maintenance,
    name: 'purge-stored-files',
    payload: zPurgeStoredFilesJob,
    jobId: ({ userId }) => `purge-stored-files-${userId}`,
    options: DEFAULT_JOB_OPTIONS,
    debounced: true,
    about: ({ userId }) => ({ userId }),
  }),
  /** A sent mail leaves nothing in Redis; one that failed every attempt is kept a week at most. */
  mail: defineJob({
    queue: QUEUES.mail,
    name: 'mail',
    payload: zMailJobPayload,
    jobId: (mail) => (mail.kind === 'code' ? `mail-code-${mail.codeId}` : `mail-${mail.key}`),
    options: {
      ...DEFAULT_JOB_OPTIONS,
      removeOnComplete: true,
      removeOnFail: { age: 7 * 24 * 3600, count: 1000 },
    },
    about: (mail) => (mail.kind === 'code' ? { codeId: mail.codeId } : { userId: mail.userId }),
  }),
  /** Queued as an account is deleted (after its other jobs are removed); gone once done. */
  deleteUserFiles: defineJob({
    queue: QUEUES.maintenance,
    name: 'delete-user-files',
    payload: zDeleteUserFilesJob,
    jobId: ({ userId }) => `delete-user-files-${userId}`,
    options: { ...DEFAULT_JOB_OPTIONS, removeOnComplete: true },
  }),
  /** One re-index per tokenizer version, queued by the workers as they start when the index is behind. */
  reindexSearch: defineJob({
    queue: QUEUES.maintenance,
    name: 'reindex-search',
    payload: zNoPayload,
    jobId: () => `reindex-search-${SEARCH_TOKENS_VERSION}`,
    options: DEFAULT_JOB_OPTIONS,
  }),
  purgeExpiredSessions: defineJob({
    queue: QUEUES.maintenance,
    name: 'purge-expired-sessions',
    payload: zNoPayload,
    jobId: () => 'purge-expired-sessions',
    options: DEFAULT_JOB_OPTIONS,
    schedule: { every: HOUR },
  }),
  purgeTrash: defineJob({
    queue: QUEUES.maintenance,
    name: 'purge-trash',
    payload: zNoPayload,
    jobId: () => 'purge-trash',
    options: DEFAULT_JOB_OPTIONS,
    schedule: { every: 6 * HOUR },
  }),
  /** Queued (debounced) when highlights change, on connecting, on "run once" and on "retry". */
  push: defineJob({
    queue: QUEUES.push,
    name: 'push',
    payload: zPushJob,
    jobId: ({ userId, app }) => `push-${userId}-${app}`,
    // The backoff's delay is PUSH_RETRY_DELAY_MS (server/config.ts), set as the job is added.
    options: DEFAULT_JOB_OPTIONS,
    debounced: true,
    about: ({ userId }) => ({ userId }),
  }),
  /**
   * Queued (debounced, so one per endpoint runs at a time) after a change recorded events, by
   * "send test event" and by the sweep; a failed delivery delays the job until its retry time.
   */
  webhookDeliver: defineJob({
    queue: QUEUES.webhook,
    name: 'deliver',
    payload: zWebhookDeliverJob,
    jobId: ({ endpointId }) => `webhook-${endpointId}`,
    options: DEFAULT_JOB_OPTIONS,
    debounced: true,
  }),
  /** Downgrades lapsed members, mails the three-days-before reminder, closes unpaid orders. */
  membership: defineJob({
    queue: QUEUES.maintenance,
    name: 'membership',
    payload: zNoPayload,
    jobId: () => 'membership',
    options: DEFAULT_JOB_OPTIONS,
    schedule: { every: HOUR },
  }),
  /** Queues every webhook endpoint with deliveries waiting (the safety net) and purges the old log. */
  sweepWebhooks: defineJob({
    queue: QUEUES.maintenance,
    name: 'sweep-webhooks',
    payload: zNoPayload,
    jobId: () => 'sweep-webhooks',
    options: DEFAULT_JOB_OPTIONS,
    schedule: { every: 60_000 },
  }),
  sweepStaleClips: defineJob({
    queue: QUEUES.maintenance,
    name: 'sweep-stale-clips',
    payload: zNoPayload,
    jobId: () => 'sweep-stale-clips',
    options: DEFAULT_JOB_OPTIONS,
    schedule: { every: 5 * 60_000 },
  }),
};

export type JobKey = keyof typeof JOBS;
/** What a producer hands `enqueue` for a job. */
export type JobInput<K extends JobKey> = z.input<(typeof JOBS)[K]['payload']>;
/** What a processor receives: the payload as the schema parsed it. */
export type JobPayload<K extends JobKey> = z.output<(typeof JOBS)[K]['payload']>;
/** The jobs that run on one queue. */
export type JobKeyOn<Q extends QueueName> = {
  [K in JobKey]: (typeof JOBS)[K]['queue'] extends Q ? K : never;
}[JobKey];

export const JOB_KEYS = Object.keys(JOBS) as JobKey[];

/** A job's payload parsed by its registered schema, or why it does not parse (the same words everywhere). */
export function parseJobPayload<K extends JobKey>(
  key: K,
  data: unknown,
): { ok: true; data: JobPayload<K> } | { ok: false; reason: string } {
  const parsed = JOBS[key].payload.safeParse(data);
  return parsed.success
    ? { ok: true, data: parsed.data as JobPayload<K> }
    : { ok: false, reason: `invalid ${key} job payload: ${z.prettifyError(parsed.error)}` };
}

/** Which registered job a BullMQ job on `queue` named `name` is, if any. */
export function jobKeyOf(queue: QueueName, name: string): JobKey | undefined {
  return JOB_KEYS.find((key) => JOBS[key].queue === queue && JOBS[key].name === name);
}

/** A clip job's id, for looking its job up (tests, the sweeper goes through `findJob`). */
export const jobIds = {
  clip: (noteId: string, attempt: number) => JOBS.clip.jobId({ noteId, attempt }),
};
