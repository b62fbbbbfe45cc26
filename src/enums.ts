// The enumerations the client, the server and the workers share, as `as const` objects with a
// union type of their values under the same name.

export type ValueOf<T> = T[keyof T];

/** Every value of an `as const` enumeration object, in declaration order. */
export function enumValues<const T extends Record<string, string | number>>(obj: T): ValueOf<T>[] {
  return Object.values(obj) as ValueOf<T>[];
}

/** Type guard: is `value` one of the values of the enumeration object? */
export function isEnumValue<const T extends Record<string, string | number>>(
  obj: T,
  value: unknown,
): value is ValueOf<T> {
  return (Object.values(obj) as unknown[]).includes(value);
}

/** A note's flow (reading state). */
export const Flow = { inbox: 1, later: 2, shortlist: 3, archive: 9 } as const;
export type Flow = ValueOf<typeof Flow>;

export const GenericFlag = { isOK: 1, isNotOK: 2 } as const;
export type GenericFlag = ValueOf<typeof GenericFlag>;

export const SidebarStyle = { mini: 1, hide: 2, list: 3 } as const;
export type SidebarStyle = ValueOf<typeof SidebarStyle>;

export const TextTooltipStyle = { moreTools: 1, hide: 2, defaultColour: 3, autoHighlight: 4 } as const;
export type TextTooltipStyle = ValueOf<typeof TextTooltipStyle>;

/** Text-tooltip colour fields c1..c6 and their slot ids 1..6. */
export const ColourSlot = { c1: 1, c2: 2, c3: 3, c4: 4, c5: 5, c6: 6 } as const;
export type ColourSlot = ValueOf<typeof ColourSlot>;
export type ColourSlotField = keyof typeof ColourSlot;

/** Default colour for each slot (6-digit hex, no alpha; see `highlightColour`). */
export const DEFAULT_SLOT_COLOURS: Readonly<Record<ColourSlot, string>> = {
  1: '#FDD835', // yellow
  2: '#81C784', // green
  3: '#64B5F6', // blue
  4: '#F48FB1', // pink
  5: '#FFB74D', // orange
  6: '#BA68C8', // purple
};

export const HighlightStyle = { background: 1, underline: 2, wavyUnderline: 3, bold: 4 } as const;
export type HighlightStyle = ValueOf<typeof HighlightStyle>;

/**
 * Clip parser status. The spec gives 4 processing, 3 queued, 2 failed; it does not name the
 * finished state, so done is 1 (matching GenericFlag.isOK = 1).
 */
export const ClipStatus = { done: 1, failed: 2, queued: 3, processing: 4 } as const;
export type ClipStatus = ValueOf<typeof ClipStatus>;

/** Note core type: 6 is a text-type note (the only kind that can "have a link"). */
export const CoreType = { highlight: 1, image: 2, textNote: 6 } as const;
export type CoreType = ValueOf<typeof CoreType>;

/** What a note is: a clipped web page, or a daily note (the spec's kind 3). */
export const NoteKind = { web: 1, daily: 3 } as const;
export type NoteKind = ValueOf<typeof NoteKind>;

/**
 * Canonical stored member levels. Interpretation of any number (spec: "above 0 or exactly 4 is
 * pro; 1 is super pro; otherwise free") lives in `rules/member-level.ts`.
 */
export const MemberLevel = { free: 0, superPro: 1, pro: 4 } as const;
export type MemberLevel = ValueOf<typeof MemberLevel>;

/** What a member level amounts to, before expiry is considered. */
export const MemberTier = { free: 'free', pro: 'pro', superPro: 'superPro' } as const;
export type MemberTier = ValueOf<typeof MemberTier>;

/** Membership as the user sees it. */
export const MembershipState = { ...MemberTier, expired: 'expired' } as const;
export type MembershipState = ValueOf<typeof MembershipState>;

export const ViewStyle = { article: 'article', card: 'card', list: 'list' } as const;
export type ViewStyle = ValueOf<typeof ViewStyle>;

/**
 * The six sort options. "Oldest" is not "oldest first": it is the counterpart of "recently
 * updated", least recently updated first.
 */
export const SortOrder = {
  newestFirst: 'created-desc',
  oldestFirst: 'created-asc',
  recentlyUpdated: 'updated-desc',
  mostHighlights: 'highlights-desc',
  positionInArticle: 'position-asc',
  oldest: 'updated-asc',
} as const;
export type SortOrder = ValueOf<typeof SortOrder>;

/**
 * The note list's sorts: all but "by position in article". A note has no place in an article;
 * that sort orders highlights (HighlightSort), and a note list asked for it (an old link or
 * stored preference) is listed newest first.
 */
export const NoteSort = {
  newestFirst: SortOrder.newestFirst,
  oldestFirst: SortOrder.oldestFirst,
  recentlyUpdated: SortOrder.recentlyUpdated,
  mostHighlights: SortOrder.mostHighlights,
  oldest: SortOrder.oldest,
} as const;
export type NoteSort = ValueOf<typeof NoteSort>;

/**
 * The highlight list's sorts: newest first, or in article order — grouped by note (the most
 * recently saved note first), each note's highlights by where they start in its text, those
 * without a place (detached, images, page notes) after them in the order they were made.
 */
export const HighlightSort = {
  newestFirst: SortOrder.newestFirst,
  positionInArticle: SortOrder.positionInArticle,
} as const;
export type HighlightSort = ValueOf<typeof HighlightSort>;

/** Theme preference as stored: dark 'y', light 'n'; absent/'system' follows the system. */
export const Theme = { dark: 'y', light: 'n', system: 'system' } as const;
export type Theme = ValueOf<typeof Theme>;

export const Region = { chn: 'chn', euro: 'euro', us: 'us' } as const;
export type Region = ValueOf<typeof Region>;

export const LoginType = { wx: 'wx', google: 'google', apple: 'apple', email: 'email', qq: 'qq' } as const;
export type LoginType = ValueOf<typeof LoginType>;

/** Extension market, as read from the page's html element (`mkt`). */
export const ExtensionMarket = {
  chrome: 'chrome',
  edge: 'edge',
  safari: 'safari',
  firefox: 'firefox',
} as const;
export type ExtensionMarket = ValueOf<typeof ExtensionMarket>;

/** Sync exclude ranges: bit flags. */
export const SyncExcludeRange = { range1: 1, range2: 2 } as const;
export type SyncExcludeRange = ValueOf<typeof SyncExcludeRange>;

export const IntegrationStatus = { bound: 'bound', unbound: 'unbound' } as const;
export type IntegrationStatus = ValueOf<typeof IntegrationStatus>;

/** Alpha suffixes appended to a 6-digit hex colour: '98' strong, '38' light background. */
export const ColourAlpha = { strong: '98', light: '38' } as const;
export type ColourAlpha = ValueOf<typeof ColourAlpha>;
export type ColourStrength = keyof typeof ColourAlpha;

const HEX_COLOUR = /^#?([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/** True for '#RGB', '#RRGGBB' or '#RRGGBBAA' (the '#' optional). */
export function isHexColour(value: string): boolean {
  return HEX_COLOUR.test(value);
}

/**
 * A highlight colour with the spec's alpha suffix: highlightColour('#fdd835', 'light') →
 * '#FDD83538'. Accepts '#RGB', '#RRGGBB' or '#RRGGBBAA' (an existing alpha is replaced). An
 * unreadable colour falls back to slot c1's default so a bad stored value never breaks a render.
 */
export function highlightColour(hex: string, strength: ColourStrength): string {
  const match = HEX_COLOUR.exec(hex.trim());
  let digits = match?.[1] ?? DEFAULT_SLOT_COLOURS[1].slice(1);
  if (digits.length === 3) digits = [...digits].map((d) => d + d).join('');
  return `#${digits.slice(0, 6).toUpperCase()}${ColourAlpha[strength]}`;
}
