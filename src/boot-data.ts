import { NOTE_LIST_CHUNK } from './constants.ts';
import { SortOrder } from './enums.ts';
import type { Me } from './schemas/auth.ts';
import type { NoteList, NoteListInput } from './schemas/notes.ts';
import type { UserSettings } from './schemas/user-settings.ts';

/**
 * The id of the JSON block (`<script type="application/json">`, superjson) the server writes
 * into index.html: what the first render needs without waiting for a request.
 */
export const BOOT_DATA_ID = 'margin-boot';

/** The list `/` shows with no filters in its address and the default sort. */
export const HOME_LIST_INPUT = {
  nav: 'all',
  sort: SortOrder.newestFirst,
  limit: NOTE_LIST_CHUNK,
} as const satisfies Partial<NoteListInput>;

export interface BootData {
  /** Who the session cookie belongs to; null when it is missing, expired or revoked. */
  me: Me | null;
  /** Signed in: the theme, highlight colours and text tooltip style (settings.get). */
  settings?: UserSettings;
  /** On `/` without a query, signed in: the first chunk of HOME_LIST_INPUT's list. */
  homeList?: NoteList;
}
