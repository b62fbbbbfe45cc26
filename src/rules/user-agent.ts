// A browser and its system named from a User-Agent header, for people ("Chrome on macOS"), not
// for deciding what a browser can do. Unknown parts are null.

export interface UserAgentParts {
  browser: string | null;
  os: string | null;
}

/**
 * First match wins: browsers built on Chromium or WebKit also carry "Chrome/" and "Safari/", and
 * apps with a web view of their own (WeChat) carry the engine's tokens too, so they come first.
 */
const BROWSERS: [RegExp, string][] = [
  [/MicroMessenger\//, 'WeChat'],
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/YaBrowser\//, 'Yandex Browser'],
  [/Vivaldi\//, 'Vivaldi'],
  [/UCBrowser\//, 'UC Browser'],
  [/MQQBrowser\/|QQBrowser\//, 'QQ Browser'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/HeadlessChrome\//, 'Headless Chrome'],
  [/\bChrome\/|CriOS\//, 'Chrome'],
  [/Version\/[\d.]+.*Safari\//, 'Safari'],
];

/** iPhones say "like Mac OS X" and some Harmony phones say Android: the narrower names first. */
const SYSTEMS: [RegExp, string][] = [
  [/\biPad\b/, 'iPadOS'],
  [/\b(?:iPhone|iPod)\b/, 'iOS'],
  [/HarmonyOS|OpenHarmony/, 'HarmonyOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bWindows\b/, 'Windows'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/Macintosh|Mac OS X/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

const firstMatch = (ua: string, table: [RegExp, string][]) =>
  table.find(([pattern]) => pattern.test(ua))?.[1] ?? null;

export function userAgentParts(userAgent: string | null | undefined): UserAgentParts {
  const ua = userAgent ?? '';
  return { browser: firstMatch(ua, BROWSERS), os: firstMatch(ua, SYSTEMS) };
}
