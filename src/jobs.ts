import { z } from 'zod';

/** Queue names: one place, shared by producers (server) and workers (jobs/). */
export const QUEUES = {
  clip: 'clip',
  mail: 'mail',
  maintenance: 'maintenance',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export const zMailJob = z.object({
  to: z.email(),
  subject: z.string().min(1),
  text: z.string().min(1),
  html: z.string().optional(),
});
export type MailJob = z.infer<typeof zMailJob>;

/** Each clip attempt is its own job: `attempt` is the note's clip_attempts when it was queued. */
export const zClipJob = z.object({ noteId: z.string().min(1), attempt: z.number().int().nonnegative() });
export type ClipJob = z.infer<typeof zClipJob>;

/** Job ids derived from the entity id make a retried enqueue a no-op (BullMQ dedupes by id). */
export const jobIds = {
  clip: (noteId: string, attempt = 0) => `clip-${noteId}-${attempt}`,
  mail: (messageId: string) => `mail-${messageId}`,
  deleteUserFiles: (userId: number) => `delete-user-files-${userId}`,
};

export const zDeleteUserFilesJob = z.object({ userId: z.number().int().positive() });

/** Retries with exponential backoff; failures stay visible in the failed set. */
export const DEFAULT_JOB_OPTIONS = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 2_000 },
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: { age: 14 * 24 * 3600 },
} as const;
