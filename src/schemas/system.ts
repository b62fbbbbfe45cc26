import { z } from 'zod';

export const zSystemInfo = z.object({
  region: z.enum(['chn', 'euro', 'us']),
  version: z.string(),
  signedIn: z.boolean(),
  /** MEMBERSHIP=on: PRO features are gated and the membership pages sell plans. */
  membershipOn: z.boolean(),
  /** PRO prompts shown at most this many times a day (the spec's per-day counter). */
  proTipsPerDay: z.number().int(),
  extension: z.object({
    /** The version this server's extension packages carry. */
    version: z.string(),
    /** Older extensions are refused ("Plugin version is too low"). */
    minVersion: z.string(),
    /** Browsers whose package this server offers for download (`/downloads/extension/<browser>`). */
    downloads: z.array(z.enum(['chrome', 'edge', 'firefox'])),
  }),
});
export type SystemInfo = z.infer<typeof zSystemInfo>;
