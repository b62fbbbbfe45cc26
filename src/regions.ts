// The regional table: login types, default language, membership page
// variant, extension install links and the footer note differ between chn, euro and us.

import { LANGUAGE_CODES, type Language } from './constants.ts';
import { type ExtensionMarket, isEnumValue, LoginType, Region } from './enums.ts';

/** Store listings outside mainland China. URLs only: never fetched by the app. */
export const EXTENSION_STORE_LINKS: Readonly<Record<ExtensionMarket, string>> = {
  chrome: 'https://chromewebstore.google.com/detail/margin/hkmgbjjdoeljclejnoipeeamgmlfcgkj',
  edge: 'https://microsoftedge.microsoft.com/addons/detail/margin/ncbaijbjpfhhcpjnlmkjjfoamjpdaphe',
  firefox: 'https://addons.mozilla.org/firefox/addon/margin-highlights/',
  safari: 'https://apps.apple.com/app/margin-highlights/id6449876543',
};

/**
 * Install links in mainland China: the Chrome Web Store is unreachable there, so Chrome points to
 * the deployment's own download (mirror) page; Edge Add-ons, AMO and the App Store are reachable.
 */
export const EXTENSION_CHN_LINKS: Readonly<Record<ExtensionMarket, string>> = {
  chrome: '/downloads/extension/chrome',
  edge: EXTENSION_STORE_LINKS.edge,
  firefox: EXTENSION_STORE_LINKS.firefox,
  safari: EXTENSION_STORE_LINKS.safari,
};

/** i18n key of the mainland-China regulatory registration note in the footer. */
export const FOOTER_REGISTRATION_NOTE_KEY = 'footer.registrationNote';

export type MembershipPageVariant = 'domestic' | 'international';

export interface RegionConfig {
  region: Region;
  /** Allowed login types; the first is the primary one for English/Chinese browsers. */
  loginTypes: readonly LoginType[];
  defaultLanguage: Language;
  /** The membership page shows a variant outside China. */
  membershipPage: MembershipPageVariant;
  extensionLinks: Readonly<Record<ExtensionMarket, string>>;
  /** The region's public deployment: the browser extension's server until the user names one. */
  site: string;
  /** i18n key of the footer note, or null when the region shows none. */
  footerNoteKey: string | null;
}

export const REGIONS: Readonly<Record<Region, RegionConfig>> = {
  chn: {
    region: 'chn',
    loginTypes: ['wx', 'google', 'apple', 'email', 'qq'],
    defaultLanguage: 'zh-CN',
    membershipPage: 'domestic',
    extensionLinks: EXTENSION_CHN_LINKS,
    site: 'https://cn.margin.example',
    footerNoteKey: FOOTER_REGISTRATION_NOTE_KEY,
  },
  euro: {
    region: 'euro',
    loginTypes: ['google', 'email'],
    defaultLanguage: 'en',
    membershipPage: 'international',
    extensionLinks: EXTENSION_STORE_LINKS,
    site: 'https://eu.margin.example',
    footerNoteKey: null,
  },
  us: {
    region: 'us',
    loginTypes: ['google', 'email'],
    defaultLanguage: 'en',
    membershipPage: 'international',
    extensionLinks: EXTENSION_STORE_LINKS,
    site: 'https://margin.example',
    footerNoteKey: null,
  },
};

/**
 * The region a browser most likely belongs to, from its clock's zone and its languages: mainland
 * China's zones or Simplified Chinese first, then Europe's zones, else us.
 */
export function regionOfBrowser(languages: readonly string[], timeZone: string): Region {
  if (/^Asia\/(Shanghai|Chongqing|Harbin|Urumqi)$/.test(timeZone)) return 'chn';
  if (
    languages[0] &&
    /^zh(-CN|-Hans)?$/i.test(languages[0]) &&
    !/^(Asia\/(Taipei|Hong_Kong|Macau))$/.test(timeZone)
  )
    return 'chn';
  if (timeZone.startsWith('Europe/')) return 'euro';
  return 'us';
}

export function isRegion(value: unknown): value is Region {
  return isEnumValue(Region, value);
}

export function regionConfig(region: Region): RegionConfig {
  return REGIONS[region];
}

export function isLoginTypeAllowed(region: Region, loginType: unknown): loginType is LoginType {
  return (REGIONS[region].loginTypes as readonly unknown[]).includes(loginType);
}

/** The requested login type when the region allows it, otherwise email. */
export function resolveLoginType(region: Region, requested: string | null | undefined): LoginType {
  return isLoginTypeAllowed(region, requested) ? requested : LoginType.email;
}

/** Primary language subtag, lower-cased: 'en-US' → 'en', 'zh_Hant_TW' → 'zh'. */
function primarySubtag(tag: string): string {
  return tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
}

/**
 * The login method offered first: email when the browser language is neither English nor
 * Chinese (or unknown), otherwise the region's first login type.
 */
export function primaryLoginType(region: Region, browserLanguage: string | null | undefined): LoginType {
  const primary = primarySubtag(browserLanguage ?? '');
  if (primary !== 'en' && primary !== 'zh') return LoginType.email;
  return REGIONS[region].loginTypes[0] ?? LoginType.email;
}

export function defaultLanguage(region: Region): Language {
  return REGIONS[region].defaultLanguage;
}

const TRADITIONAL_CHINESE = new Set(['hant', 'tw', 'hk', 'mo']);

/**
 * The supported language that best matches a BCP 47 tag, or null. Matching ignores case and
 * accepts '_' for '-'. Chinese: zh-Hant / zh-TW / zh-HK / zh-MO → zh-TW; any other zh → zh-CN.
 * Other tags match on their primary subtag (pt-BR → pt, en-GB → en).
 */
export function matchLanguage(tag: string | null | undefined): Language | null {
  if (!tag) return null;
  const parts = tag.trim().toLowerCase().split(/[-_]/);
  const primary = parts[0];
  if (!primary) return null;
  if (primary === 'zh') {
    return parts.slice(1).some((p) => TRADITIONAL_CHINESE.has(p)) ? 'zh-TW' : 'zh-CN';
  }
  return LANGUAGE_CODES.find((code) => code === primary) ?? null;
}

/** A stored language value in canonical form if it names a supported language exactly. */
function canonicalStoredLanguage(stored: string | null | undefined): Language | null {
  if (!stored) return null;
  const wanted = stored.trim().replace('_', '-').toLowerCase();
  return LANGUAGE_CODES.find((code) => code.toLowerCase() === wanted) ?? null;
}

/**
 * The interface language: the stored choice if supported; else zh-CN in the China region; else
 * the first browser language that matches one of the 17; else the region's default.
 */
export function pickLanguage(
  region: Region,
  stored: string | null | undefined,
  browserLanguages: readonly string[],
): Language {
  const fromStore = canonicalStoredLanguage(stored);
  if (fromStore) return fromStore;
  if (region === Region.chn) return 'zh-CN';
  for (const tag of browserLanguages) {
    const match = matchLanguage(tag);
    if (match) return match;
  }
  return defaultLanguage(region);
}
