import { z } from 'zod';
import { enumValues, Flow, type ValueOf } from '../enums.ts';
import { refusal } from '../errors.ts';
import { DEVICE_CODE_PATTERN, normalizeDeviceCode } from '../rules/device-flow.ts';
import { zText } from '../rules/text.ts';
import { zDay } from './daily.ts';
import { EXTENSION_SERVICE_ID } from './extension.ts';
import { zFolderId } from './folders.ts';
import { zNoteId } from './notes.ts';
import { TAGS_PER_ITEM_MAX, zTag } from './tags.ts';

// Sync: the integrations (connected note tools), their settings, and what the export engine
// hands every front (Margin's /api/sync/v1, the seed product's plugin protocol, the push
// workers, the Markdown zip). One file, shared by the server, the client and the plugins.

export const IntegrationApp = {
  obsidian: 'obsidian',
  logseq: 'logseq',
  siyuan: 'siyuan',
  flomo: 'flomo',
  workflowy: 'workflowy',
} as const;
export type IntegrationApp = ValueOf<typeof IntegrationApp>;
export const INTEGRATION_APPS = enumValues(IntegrationApp);
export const zIntegrationApp = z.enum(INTEGRATION_APPS);

/** Apps whose plugins pull from the server, and the seed protocol's `serviceId` of each. */
export const PULL_SERVICE_IDS = { obsidian: 7, logseq: 11, siyuan: 34 } as const satisfies Partial<
  Record<IntegrationApp, number>
>;
export type PullApp = keyof typeof PULL_SERVICE_IDS;
export function pullAppOfServiceId(serviceId: number): PullApp | undefined {
  return (Object.keys(PULL_SERVICE_IDS) as PullApp[]).find((app) => PULL_SERVICE_IDS[app] === serviceId);
}

/**
 * Who may hold a token from the device flow: the note tools, which pull, and the browser
 * extension, which reads and writes through the Open API. A token works only for its own kind.
 */
export const DEVICE_SERVICE_IDS = { ...PULL_SERVICE_IDS, extension: EXTENSION_SERVICE_ID } as const;
export type TokenApp = keyof typeof DEVICE_SERVICE_IDS;
export const TOKEN_APPS = Object.keys(DEVICE_SERVICE_IDS) as TokenApp[];
export function tokenAppOfServiceId(serviceId: number): TokenApp | undefined {
  return TOKEN_APPS.find((app) => DEVICE_SERVICE_IDS[app] === serviceId);
}
export const isPullApp = (app: TokenApp | IntegrationApp): app is PullApp =>
  Object.hasOwn(PULL_SERVICE_IDS, app);
/** Apps the server pushes into (a worker calls the tool's API). */
export const PUSH_APPS = ['siyuan', 'flomo', 'workflowy'] as const satisfies readonly IntegrationApp[];
export type PushApp = (typeof PUSH_APPS)[number];
export function isPushApp(app: IntegrationApp): app is PushApp {
  return (PUSH_APPS as readonly string[]).includes(app);
}

/** What an integration leaves out (its exclude ranges), as bit flags. */
export const ExcludeRange = { withoutHighlights: 1, dailyNotes: 2 } as const;
export const EXCLUDE_RANGES_ALL = ExcludeRange.withoutHighlights | ExcludeRange.dailyNotes;

/** Obsidian's `writeStyle`: rewrite the whole file, or only the `%%begin …%%` blocks. */
export const WriteStyle = { overwrite: 1, partial: 2 } as const;
export type WriteStyle = ValueOf<typeof WriteStyle>;
/** How tags are written: `#tag` or `[[tag]]`. */
export const TagStyle = { hash: 1, wikilink: 2 } as const;
export type TagStyle = ValueOf<typeof TagStyle>;

/** The seed protocol's highlight types. */
export const ExportHighlightType = { text: 1, image: 2, math: 3, textNote: 4 } as const;
export type ExportHighlightType = ValueOf<typeof ExportHighlightType>;

export const TEMPLATE_MAX = 20_000;
export const SYNC_FOLDER_MAX = 200;

/** The templates an integration can have; which ones each app uses is `APP_TEMPLATES`. */
export const TemplateName = { title: 'title', note: 'note', highlight: 'highlight' } as const;
export type TemplateName = ValueOf<typeof TemplateName>;
export const APP_TEMPLATES: Readonly<Record<IntegrationApp, readonly TemplateName[]>> = {
  obsidian: ['title', 'note'],
  logseq: ['title', 'note'],
  siyuan: ['title', 'note'],
  flomo: ['highlight'],
  workflowy: ['highlight'],
};

const zTemplateSource = zText().max(TEMPLATE_MAX, 'errors.templateTooLong');
export const zTemplates = z
  .object({ title: zTemplateSource, note: zTemplateSource, highlight: zTemplateSource })
  .partial();
export type Templates = z.infer<typeof zTemplates>;

/** The per-integration query filter: only notes with one of `tags`, in `folderId`, in `flows`, saved since `since`. */
export const zSyncFilter = z.object({
  tags: z.array(zTag).max(TAGS_PER_ITEM_MAX).default([]),
  folderId: zFolderId.nullable().default(null),
  flows: z
    .array(z.union(enumValues(Flow).map((f) => z.literal(f))))
    .max(4)
    .default([]),
  /** A day, `YYYY-MM-DD`, in the user's time zone. */
  since: zDay.nullable().default(null),
});

/** What the user sets on an integration page, each field as sent (no defaults: an update names what it changes). */
const SETTINGS_FIELDS = {
  templates: zTemplates,
  writeStyle: z.union([z.literal(WriteStyle.overwrite), z.literal(WriteStyle.partial)]),
  tagStyle: z.union([z.literal(TagStyle.hash), z.literal(TagStyle.wikilink)]),
  /** The folder (Obsidian, Logseq) or notebook path (SiYuan) notes are written under. */
  folder: zText()
    .trim()
    .max(SYNC_FOLDER_MAX, 'errors.folderTooLong')
    // A folder inside the vault or notebook: no `..` step out of it.
    .refine((folder) => !folder.split(/[\\/]/).includes('..'), 'errors.folderInvalid'),
  excludeRanges: z.number().int().min(0).max(EXCLUDE_RANGES_ALL),
  filter: zSyncFilter,
};
/** An update: only the fields it names change. */
export const zIntegrationSettingsPatch = z.object(SETTINGS_FIELDS).partial();
export type IntegrationSettingsPatch = z.infer<typeof zIntegrationSettingsPatch>;
/** An integration's settings as stored, with the defaults of what was never set. */
export const zIntegrationSettings = z.object({
  templates: SETTINGS_FIELDS.templates.default({}),
  writeStyle: SETTINGS_FIELDS.writeStyle.default(WriteStyle.overwrite),
  tagStyle: SETTINGS_FIELDS.tagStyle.default(TagStyle.hash),
  folder: SETTINGS_FIELDS.folder.default('Margin'),
  excludeRanges: SETTINGS_FIELDS.excludeRanges.default(0),
  filter: SETTINGS_FIELDS.filter.prefault({}),
});
export type IntegrationSettings = z.infer<typeof zIntegrationSettings>;

/** The credentials a push integration is bound with (never sent back to the client). */
export const zFlomoCredentials = z.object({
  webhookUrl: zText().trim().max(512, 'errors.urlInvalid'),
});
export const zWorkflowyCredentials = z.object({
  apiKey: zText().trim().min(1, 'errors.cannotBeEmpty').max(256, 'errors.invalidInput'),
  /** Where nodes go: a node id, `home`, `inbox`, or a date. */
  parentId: zText().trim().max(64, 'errors.invalidInput').default('inbox'),
});
export const zSiyuanCredentials = z.object({
  kernelUrl: zText().trim().min(1, 'errors.cannotBeEmpty').max(512, 'errors.urlInvalid'),
  token: zText().trim().max(256, 'errors.invalidInput').default(''),
  notebook: zText().trim().max(128, 'errors.invalidInput').default('Margin'),
});

// ---- What the engine exports --------------------------------------------------------------

export const zExportHighlight = z.object({
  id: z.string(),
  type: z.number().int(),
  /** The highlighted text (empty for an image). */
  text: z.string(),
  imageUrl: z.string().nullable(),
  annotation: z.string().nullable(),
  /** Colour slot 1–6 and its colour. */
  slot: z.number().int(),
  color: z.string(),
  tags: z.array(z.string()),
  /** Link to the passage in Margin's reader. */
  link: z.string(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type ExportHighlight = z.infer<typeof zExportHighlight>;

/** One note with its highlights: the unit every front exports. Times are epoch seconds. */
export const zExportRecord = z.object({
  id: z.string(),
  kind: z.enum(['page', 'daily']),
  title: z.string(),
  url: z.string(),
  /** The note in Margin's reader. */
  readerUrl: z.string(),
  siteName: z.string().nullable(),
  author: z.string().nullable(),
  tags: z.array(z.string()),
  folder: z.string().nullable(),
  flow: z.number().int(),
  /** A daily note's Markdown; empty for a page. */
  content: z.string(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  publishedAt: z.number().int().nullable(),
  highlights: z.array(zExportHighlight),
});
export type ExportRecord = z.infer<typeof zExportRecord>;

// ---- Margin's own pull API: /api/sync/v1 ---------------------------------------------------

export const SYNC_CURSOR_MAX = 512;
const SYNC_CURSOR_CHARS = /^[0-9A-Za-z._-]*$/;
/**
 * A sync cursor as the server writes them (digits, dots and base64url; the seed's `start`): any
 * other text, one with NUL included, is refused as a cursor, not as text in general.
 */
export const zSyncCursor = z
  .string()
  .refine((cursor) => cursor.length <= SYNC_CURSOR_MAX, refusal('errors.syncCursorInvalid', 'cursorInvalid'))
  .refine((cursor) => SYNC_CURSOR_CHARS.test(cursor), refusal('errors.syncCursorInvalid', 'cursorInvalid'));
/** A plugin's random id for itself (device flow, the one-sync-at-a-time lease). */
export const zSyncClientId = zText()
  .max(128, 'errors.syncClientInvalid')
  .regex(/^[A-Za-z0-9_-]{8,128}$/, 'errors.syncClientInvalid');

/** The code a Margin plugin shows while it connects (src/rules/device-flow.ts), as typed or sent. */
export const zDeviceCode = zText()
  .max(32, 'errors.deviceCodeWrong')
  .transform(normalizeDeviceCode)
  .pipe(z.string().regex(DEVICE_CODE_PATTERN, 'errors.deviceCodeWrong'));
/** A device-flow poll; Margin's plugins send the code they show (the seed's plugins show none). */
export const zSyncTokenRequest = z.object({ clientId: zSyncClientId, userCode: zDeviceCode.optional() });
export const zSyncTokenResponse = z.object({ token: z.string() });

export const zSyncInitRequest = z.object({
  clientId: zSyncClientId,
  /** The client lost its files (or wants them all again): start from the beginning. */
  fromStart: z.boolean().default(false),
});
export const zSyncInitResponse = z.object({
  app: zIntegrationApp,
  /** The cursor the client last acknowledged; null when everything is to be sent. */
  cursor: zSyncCursor.nullable(),
  totalNotes: z.number().int(),
  settings: z.object({ folder: z.string(), writeStyle: z.number().int() }),
});
export type SyncInitResponse = z.infer<typeof zSyncInitResponse>;

export const zSyncDownloadRequest = z.object({
  clientId: zSyncClientId,
  cursor: zSyncCursor.nullable().default(null),
  /** Re-download these notes whatever the cursor says. */
  noteIds: z.array(zNoteId).max(6).default([]),
});
/** A note rendered by the integration's templates, ready to write. */
export const zSyncedNote = z.object({
  id: z.string(),
  /** `<title>-<id>.md`, made safe for every file system. */
  fileName: z.string(),
  markdown: z.string(),
  updatedAt: z.number().int(),
  record: zExportRecord,
});
export type SyncedNote = z.infer<typeof zSyncedNote>;
export const zSyncDownloadResponse = z.object({
  notes: z.array(zSyncedNote),
  /** Notes to remove: deleted, trashed, or no longer matching the integration's filter. */
  deleted: z.array(z.string()),
  cursor: zSyncCursor,
  hasMore: z.boolean(),
});
export type SyncDownloadResponse = z.infer<typeof zSyncDownloadResponse>;

export const zSyncAckRequest = z.object({ clientId: zSyncClientId, cursor: zSyncCursor });
export const zSyncNoteActionRequest = z.object({ noteId: zNoteId });

/** The error body of /api/sync/v1: a stable code and a message in the caller's language. */
export const zSyncApiError = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

// ---- The settings pages (tRPC `sync` router) -----------------------------------------------

export const zAppInput = z.object({ app: zIntegrationApp });
export const zPullAppInput = z.object({ app: z.enum(['obsidian', 'logseq', 'siyuan']) });
export const zUpdateSettingsInput = z.object({
  app: zIntegrationApp,
  settings: zIntegrationSettingsPatch,
});
export const zSetEnabledInput = z.object({ app: zIntegrationApp, enabled: z.boolean() });
export const zPreviewInput = z.object({
  app: zIntegrationApp,
  /** Unsaved templates to try; the saved ones otherwise. */
  templates: zTemplates.optional(),
  noteId: zNoteId.optional(),
});
export const zPreviewResult = z.object({
  /** The note shown: one of the user's (null: a sample, the user has none yet). */
  noteId: z.string().nullable(),
  noteTitle: z.string(),
  fileName: z.string(),
  markdown: z.string(),
  /** Variables the templates use that no render gives (a misspelling): they render as nothing. */
  unknownVariables: z.array(z.string()),
});
export const zIntegrationView = z.object({
  app: zIntegrationApp,
  bound: z.boolean(),
  enabled: z.boolean(),
  settings: zIntegrationSettings,
  /** The templates used where the user wrote none: what the editor can start from. */
  defaultTemplates: zTemplates,
  lastRunAt: z.date().nullable(),
  lastResult: z.string().nullable(),
  lastError: z.string().nullable(),
  lastCount: z.number().int(),
});
export type IntegrationView = z.infer<typeof zIntegrationView>;

export const SYNC_TOKEN_NAME_MAX = 64;
const zTokenName = zText()
  .trim()
  .min(1, 'errors.cannotBeEmpty')
  .max(SYNC_TOKEN_NAME_MAX, 'errors.nameTooLong');
export const zSyncTokenId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
export const zCreateSyncTokenInput = z.object({ app: zPullAppInput.shape.app, name: zTokenName });
export const zRenameSyncTokenInput = z.object({ id: zSyncTokenId, name: zTokenName });
export const zSyncTokenIdInput = z.object({ id: zSyncTokenId });
export const zSyncTokenView = z.object({
  id: z.number().int(),
  app: z.enum(TOKEN_APPS),
  name: z.string(),
  createdAt: z.date(),
  lastUsedAt: z.date().nullable(),
  lastUsedClient: z.string().nullable(),
});
export type SyncTokenView = z.infer<typeof zSyncTokenView>;
export const zCreatedSyncToken = z.object({ token: z.string(), view: zSyncTokenView });
export const zConfirmDeviceInput = z.object({
  serviceId: z.number().int().min(0).max(1000),
  clientId: zSyncClientId,
  /** The code the plugin shows, as the user typed it; needed when the plugin registered one. */
  userCode: zDeviceCode.optional(),
});

// ---- Push tools (flomo, WorkFlowy, SiYuan) --------------------------------------------------

export const zPushAppInput = z.object({ app: z.enum(PUSH_APPS) });
/** Connecting a push tool: its credentials, checked against the tool before they are saved. */
export const zConnectPushInput = z.discriminatedUnion('app', [
  z.object({ app: z.literal('flomo'), credentials: zFlomoCredentials }),
  z.object({ app: z.literal('workflowy'), credentials: zWorkflowyCredentials }),
  z.object({ app: z.literal('siyuan'), credentials: zSiyuanCredentials }),
]);
export type ConnectPushInput = z.infer<typeof zConnectPushInput>;
