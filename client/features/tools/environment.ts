import { type ExtensionMarket, isEnumValue, ExtensionMarket as Markets } from '../../../src/enums.ts';
import { toStorableText } from '../../../src/rules/text.ts';
import type { FeedbackEnvironment } from '../../../src/schemas/feedback.ts';
import { i18n } from '../../i18n.ts';

/** What the browser extension writes onto the page's html element (spec: mkt, v and mktv). */
export interface ExtensionInfo {
  market: string | null;
  version: string | null;
  marketVersion: string | null;
}

/** The extension's attributes on <html>, or null when no extension marked the page. */
export function extensionInfo(root: Element = document.documentElement): ExtensionInfo | null {
  const read = (name: string) => root.getAttribute(name)?.trim() || null;
  const info = { market: read('mkt'), version: read('v'), marketVersion: read('mktv') };
  return info.market || info.version || info.marketVersion ? info : null;
}

/**
 * The store a browser installs extensions from, by its user agent: Edge and Firefox name
 * themselves, Safari is the WebKit browser that is not Chrome, and every other Chromium is Chrome.
 */
function marketOfUserAgent(userAgent: string): ExtensionMarket | null {
  if (/\bEdg(e|A|iOS)?\//.test(userAgent)) return Markets.edge;
  if (/\b(Firefox|FxiOS)\//.test(userAgent)) return Markets.firefox;
  // Headless Chromium says HeadlessChrome/: no word boundary before Chrome.
  if (/(Chrome|Chromium|CriOS)\//.test(userAgent)) return Markets.chrome;
  if (/\bVersion\/[\d.]+.*\bSafari\//.test(userAgent)) return Markets.safari;
  return null;
}

/** The user's browser's store: the extension's own word when it marked the page, else the user agent's. */
export function currentMarket(): ExtensionMarket | null {
  const marked = extensionInfo()?.market?.toLowerCase();
  if (isEnumValue(Markets, marked)) return marked;
  return marketOfUserAgent(navigator.userAgent);
}

/** The environment the feedback form attaches: what a bug report needs to be reproduced. */
export function browserEnvironment(): FeedbackEnvironment {
  const extension = extensionInfo();
  const environment: FeedbackEnvironment = {
    appVersion: __BUILD_VERSION__,
    userAgent: navigator.userAgent.slice(0, 512),
    language: i18n.language,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    extensionMarket: extension?.market?.slice(0, 16),
    extensionVersion: extension?.version?.slice(0, 32),
    extensionMarketVersion: extension?.marketVersion?.slice(0, 32),
  };
  // Extension attributes are anyone's to write: what cannot be stored is replaced, not refused.
  return Object.fromEntries(
    Object.entries(environment).flatMap(([name, value]) => (value ? [[name, toStorableText(value)]] : [])),
  );
}
