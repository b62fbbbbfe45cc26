import { z } from 'zod';

export const zSystemInfo = z.object({
  region: z.enum(['chn', 'euro', 'us']),
  version: z.string(),
  signedIn: z.boolean(),
  /** MEMBERSHIP=on: PRO features are gated and the membership pages sell plans. */
  membershipOn: z.boolean(),
  /** PRO prompts shown at most this many times a day (the spec's per-day counter). */
  proTipsPerDay: z.number().int(),
});
export type SystemInfo = z.infer<typeof zSystemInfo>;
