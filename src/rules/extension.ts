import { EXTENSION_VERSIONS } from '../constants.ts';

// The browser extension's plain rules, shared by the server, the app and the extension (whose
// content script must stay small: nothing here needs zod). The schemas are in schemas/extension.ts.

/** The device flow's `serviceId` of the browser extension (the note tools have 7, 11 and 34). */
export const EXTENSION_SERVICE_ID = 2;

/** Sent by the extension on every call: `<market>/<version>`, e.g. `chrome/25.4.307`. */
export const EXTENSION_CLIENT_HEADER = 'X-Margin-Extension';

/** The extension this project builds is as new as the spec's Chrome, Edge and Firefox version. */
export const EXTENSION_VERSION = EXTENSION_VERSIONS.chrome;

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

/** A version below the server's minimum: the extension must be updated. */
export function isVersionTooLow(version: string, minimum: string): boolean {
  return compareVersions(version, minimum) < 0;
}

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

// ── Uploads ───────────────────────────────────────────────────────────────────────────────

/** The rendered page's HTML the extension uploads at most (the clip parser's own ceiling). */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;

/** The spec's "content type 1": the file is a page's HTML. */
export const UploadContentType = { pageHtml: 1 } as const;

/** The JSON line the uploaded text starts with (spec: page id, content type 1 and so on). */
export interface UploadHeader {
  noteId?: string;
  contentType: typeof UploadContentType.pageHtml;
  url: string;
  title?: string;
}

/** The uploaded file: the header as one JSON line, then the page's HTML. */
export function uploadFile(header: UploadHeader, html: string): string {
  return `${JSON.stringify(header)}\n${html}`;
}
