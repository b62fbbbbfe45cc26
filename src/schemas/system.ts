import { z } from 'zod';

export const zSystemInfo = z.object({
  region: z.enum(['chn', 'euro', 'us']),
  version: z.string(),
  signedIn: z.boolean(),
});
export type SystemInfo = z.infer<typeof zSystemInfo>;
