import { z } from 'zod';

/** The note tools Margin ships a plugin for (plugins/<tool>). */
export const zPluginTool = z.enum(['obsidian', 'logseq']);
export type PluginTool = z.infer<typeof zPluginTool>;

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
  /** The plugins this server built (`/downloads/plugins/<tool>`), each with its manifest's version. */
  plugins: z.array(z.object({ tool: zPluginTool, version: z.string() })),
});
export type SystemInfo = z.infer<typeof zSystemInfo>;
