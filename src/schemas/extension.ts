import { z } from 'zod';
import { EXTENSION_VERSIONS } from '../constants.ts';
import { ExtensionMarket } from '../enums.ts';
import { zStoredId } from '../rules/id.ts';
import { NOTE_URL_MAX } from '../rules/note-url.ts';
import { zText } from '../rules/text.ts';
import { zApiHighlight } from './openapi.ts';

// The browser extension's side of the Open API (`/openapi/v1/extension/…`) and the upload policy
// (spec sections 3 and 7). The extension (extension/) and the server parse with these.

/** The device flow's `serviceId` of the browser extension (the note tools have 7, 11 and 34). */
export const EXTENSION_SERVICE_ID = 2;

/** Sent by the extension on every call: `<market>/<version>`, e.g. `chrome/25.4.307`. */
export const EXTENSION_CLIENT_HEADER = 'X-Margin-Extension';

/** The extension this project builds is as new as the spec's Chrome, Edge and Firefox version. */
export const EXTENSION_VERSION = EXTENSION_VERSIONS.chrome;

/** A dotted version: 25.4.307. */
export const zVersion = z.string().regex(/^\d{1,5}(\.\d{1,5}){0,3}$/);

/** Compares dotted versions part by part (25.4.307 < 25.10.1); a missing part is 0. */
export function compareVersions(a: string, b: string): number {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const diff = (left[i] ?? 0) - (right[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  return 0;
}

/** The extension's `<market>/<version>` header, or null when it is not one. */
export function parseExtensionClient(
  value: string | undefined,
): { market: ExtensionMarket; version: string } | null {
  const match = /^(chrome|edge|firefox|safari)\/(.+)$/.exec(value ?? '');
  if (!match || !zVersion.safeParse(match[2]).success) return null;
  return { market: match[1] as ExtensionMarket, version: match[2] as string };
}

/** A version below the server's minimum: the extension must be updated. */
export function isVersionTooLow(version: string, minimum: string): boolean {
  return compareVersions(version, minimum) < 0;
}

export const zExtensionMarket = z.enum(Object.values(ExtensionMarket));

// ── Shortcuts ──────────────────────────────────────────────────────────────────────────────

/** What the extension's keyboard shortcuts do on a page. */
export const EXTENSION_SHORTCUTS = ['highlight', 'annotate', 'save'] as const;
export type ExtensionShortcut = (typeof EXTENSION_SHORTCUTS)[number];

/** Modifiers in this order, then one letter or digit: `Alt+Shift+H`. */
export const SHORTCUT_PATTERN = /^(Ctrl\+)?(Alt\+)?(Shift\+)?(Meta\+)?[A-Z0-9]$/;

export const DEFAULT_SHORTCUTS: Readonly<Record<ExtensionShortcut, string>> = {
  highlight: 'Alt+Shift+H',
  annotate: 'Alt+Shift+N',
  save: 'Alt+Shift+S',
};

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

/** The key combination of a keyboard event, written as SHORTCUT_PATTERN has it. */
export function shortcutOf(event: {
  key: string;
  code?: string;
  ctrlKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  metaKey: boolean;
}): string | null {
  // With Alt (Option on a Mac) `key` is a symbol, so the physical key is read from `code`.
  const fromCode = /^(?:Key([A-Z])|Digit([0-9]))$/.exec(event.code ?? '');
  const key = fromCode ? (fromCode[1] ?? fromCode[2]) : event.key.length === 1 ? event.key.toUpperCase() : '';
  if (!key || !/^[A-Z0-9]$/.test(key)) return null;
  const parts = [
    event.ctrlKey && 'Ctrl',
    event.altKey && 'Alt',
    event.shiftKey && 'Shift',
    event.metaKey && 'Meta',
  ].filter(Boolean);
  return [...parts, key].join('+');
}

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

export const zPageUrl = zText()
  .trim()
  .min(1, 'errors.cannotBeEmpty')
  .max(NOTE_URL_MAX, 'errors.urlInvalid')
  .refine((url) => /^https?:\/\//i.test(url), 'errors.urlInvalid');

export const zExtensionPageQuery = z.object({ url: zPageUrl });

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

// ── Upload policy (spec section 7) ──────────────────────────────────────────────────────────

/** The rendered page's HTML the extension uploads at most (the clip parser's own ceiling). */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;

/** The spec's "content type 1": the file is a page's HTML. */
export const UploadContentType = { pageHtml: 1 } as const;

export const zUploadPolicyInput = z.object({
  url: zPageUrl,
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

export const zUploadKey = zText()
  .max(200)
  .regex(/^[0-9]+\/uploads\/[0-9A-Za-z-]{8,64}\.txt$/, 'errors.uploadNotFound');

export const zUploadCompleteInput = z.object({ key: zUploadKey });

/** The JSON line the uploaded text starts with (spec: page id, content type 1 and so on). */
export const zUploadHeader = z.object({
  pageId: zStoredId.optional(),
  contentType: z.literal(UploadContentType.pageHtml),
  url: zPageUrl,
  title: zText().max(500).optional(),
});
export type UploadHeader = z.infer<typeof zUploadHeader>;

/** The uploaded file: the header as one JSON line, then the page's HTML. */
export function uploadFile(header: UploadHeader, html: string): string {
  return `${JSON.stringify(header)}\n${html}`;
}

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
