import type { ExtensionSettings } from '../../src/schemas/extension.ts';
import type { Selectors } from '../../src/schemas/highlights.ts';
import type { ApiHighlight } from '../../src/schemas/openapi.ts';

// What the content scripts, the popup and the background say to each other.

/** A highlight as the extension makes it; its id is the client's, so a retried create is one highlight. */
export interface NewHighlight {
  id: string;
  selectors: Selectors;
  slotId: number;
  style: number;
  annotation?: string;
}

export interface HighlightPatch {
  slotId?: number;
  style?: number;
  annotation?: string | null;
}

/** What the app's own pages carry on <html>: which extension is installed, and its version. */
export interface AppMarks {
  mkt: string;
  v: string;
  mktv: string;
}

export interface PageAnswer {
  /** Null when the extension is not connected: the page is left alone. */
  settings: ExtensionSettings | null;
  /** The strings of the account's language. */
  language: string;
  messages: Record<string, string>;
  highlights: ApiHighlight[];
  /** The saved note in Margin's reader. */
  readerUrl: string | null;
  /** Set on the connected Margin server's own pages. */
  app: AppMarks | null;
  /** On the confirmation page the extension opened (only there): the code it shows, to fill in. */
  deviceCode: string | null;
}

export type ContentRequest =
  | { type: 'hello'; url: string }
  | { type: 'create'; url: string; title: string; highlight: NewHighlight }
  | { type: 'update'; id: string; patch: HighlightPatch }
  | { type: 'delete'; id: string }
  | { type: 'save'; url: string; title: string; html: string }
  | { type: 'anchored'; url: string; ids: string[] }
  | { type: 'orphans'; url: string }
  | { type: 'suggestServer'; origin: string };

export type PopupRequest =
  | { type: 'status' }
  | { type: 'connect'; server: string }
  | { type: 'disconnect' }
  | { type: 'saveTab'; tabId: number }
  | { type: 'showPanel'; tabId: number }
  | { type: 'flush' };

export type BackgroundToContent =
  | { type: 'collect' }
  | { type: 'repaint'; highlights: ApiHighlight[]; readerUrl: string | null }
  | { type: 'showPanel' }
  | { type: 'highlightSelection' };

export interface CollectedPage {
  url: string;
  title: string;
  html: string;
}

export interface Status {
  server: string;
  connected: boolean;
  /** While the user confirms in Margin: the code the confirmation page asks for. */
  connecting: string | null;
  lastError: string | null;
  queued: number;
  language: string;
  page: { saved: boolean; highlightCount: number; readerUrl: string | null } | null;
}
