import { z } from 'zod';
import type { ExtensionMarket } from '../enums.ts';
import {
  EXTENSION_SHORTCUTS,
  SHORTCUT_PATTERN,
  UploadContentType,
  type UploadHeader,
} from '../rules/extension.ts';
import { zStoredId } from '../rules/id.ts';
import { isWebUrl, NOTE_URL_MAX } from '../rules/note-url.ts';
import { zText } from '../rules/text.ts';
import { zApiHighlight } from './openapi.ts';

export * from '../rules/extension.ts';

// The browser extension's side of the Open API (`/openapi/v1/extension/…`) and the upload policy
// it asks for. The extension (extension/) and the server parse with these.

/** A dotted version: 25.4.307. */
export const zVersion = z.string().regex(/^\d{1,5}(\.\d{1,5}){0,3}$/);

/** The extension's `<market>/<version>` header, or null when it is not one. */
export function parseExtensionClient(
  value: string | undefined,
): { market: ExtensionMarket; version: string } | null {
  const match = /^(chrome|edge|firefox|safari)\/(.+)$/.exec(value ?? '');
  if (!match || !zVersion.safeParse(match[2]).success) return null;
  return { market: match[1] as ExtensionMarket, version: match[2] as string };
}

// ── Shortcuts ──────────────────────────────────────────────────────────────────────────────

export const zShortcut = zText()
  .max(24, 'errors.shortcutInvalid')
  .regex(SHORTCUT_PATTERN, 'errors.shortcutInvalid')
  // A bare letter would fire while the user types into the page.
  .refine((s) => s.includes('+'), 'errors.shortcutInvalid');

export const zShortcuts = z
  .strictObject({ highlight: zShortcut, annotate: zShortcut, save: zShortcut })
  .refine((s) => new Set(Object.values(s)).size === EXTENSION_SHORTCUTS.length, {
    message: 'errors.shortcutTaken',
    path: ['save'],
  });
export type Shortcuts = z.infer<typeof zShortcuts>;

// ── What the extension reads ───────────────────────────────────────────────────────────────

const zHex = z.string();

/** The account's preferences as the extension applies them: defaults filled in. */
export const zExtensionSettings = z
  .object({
    textTooltipStyle: z.number().int(),
    colours: z.object({ c1: zHex, c2: zHex, c3: zHex, c4: zHex, c5: zHex, c6: zHex }),
    shortcuts: z.object({ highlight: z.string(), annotate: z.string(), save: z.string() }),
    language: z.string(),
    /** Versions below this are refused ("Plugin version is too low"). */
    minVersion: z.string(),
  })
  .meta({ id: 'ExtensionSettings' });
export type ExtensionSettings = z.infer<typeof zExtensionSettings>;

export const zWebPageUrl = zText()
  .trim()
  .min(1, 'errors.cannotBeEmpty')
  .max(NOTE_URL_MAX, 'errors.urlInvalid')
  .refine(isWebUrl, 'errors.urlInvalid');

export const zExtensionPageQuery = z.object({ url: zWebPageUrl });

/** A page as the extension sees it: the saved note for its URL (if any) and its highlights. */
export const zExtensionPage = z
  .object({
    note: z
      .object({
        id: z.string(),
        title: z.string(),
        highlightCount: z.number().int(),
        /** The note in Margin's reader. */
        readerUrl: z.string(),
      })
      .nullable(),
    highlights: z.array(zApiHighlight),
  })
  .meta({ id: 'ExtensionPage' });
export type ExtensionPage = z.infer<typeof zExtensionPage>;

// ── Upload policy ──────────────────────────────────────────────────────────────────────────

export const zUploadPolicyInput = z.object({
  url: zWebPageUrl,
  title: zText().max(500, 'errors.tooLong').optional(),
});

/**
 * Where and how to upload: POST a multipart form to `host` with every field of `fields`, then
 * `success_action_status` 200 and the `file`; on 200, POST `{ key }` to `callback`. `key`,
 * `accessid`, `policy` and `signature` are the spec's names for the fields a driver signs with.
 */
export const zUploadPolicy = z
  .object({
    key: z.string(),
    accessid: z.string(),
    policy: z.string(),
    signature: z.string(),
    callback: z.string(),
    host: z.string(),
    fields: z.record(z.string(), z.string()),
    maxBytes: z.number().int(),
    expiresAt: z.number().int().meta({ description: 'Epoch seconds.' }),
  })
  .meta({ id: 'UploadPolicy' });
export type UploadPolicy = z.infer<typeof zUploadPolicy>;

/** `uploads/<account>/<id>.txt`; keys issued before uploads had a folder of their own were `<account>/uploads/<id>.txt`. */
export const zUploadKey = zText()
  .max(200)
  .regex(/^(?:uploads\/[0-9]+|[0-9]+\/uploads)\/[0-9A-Za-z-]{8,64}\.txt$/, 'errors.uploadNotFound');

export const zUploadCompleteInput = z.object({ key: zUploadKey });

/** Parses the header line (rules/extension.ts `UploadHeader`). */
export const zUploadHeader = z.object({
  noteId: zStoredId.optional(),
  contentType: z.literal(UploadContentType.pageHtml),
  url: zWebPageUrl,
  title: zText().max(500).optional(),
}) satisfies z.ZodType<UploadHeader>;

/** The header and HTML of an uploaded file, or null when it is not one. */
export function parseUploadFile(text: string): { header: UploadHeader; html: string } | null {
  const newline = text.indexOf('\n');
  if (newline < 0) return null;
  let json: unknown;
  try {
    json = JSON.parse(text.slice(0, newline));
  } catch {
    return null;
  }
  const header = zUploadHeader.safeParse(json);
  return header.success ? { header: header.data, html: text.slice(newline + 1) } : null;
}
