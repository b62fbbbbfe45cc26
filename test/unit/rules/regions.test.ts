import { describe, expect, test } from 'vitest';
import {
  defaultLanguage,
  isRegion,
  matchLanguage,
  pickLanguage,
  primaryLoginType,
  REGIONS,
  regionOfBrowser,
  resolveLoginType,
} from '../../../src/regions.ts';

describe('login types by region', () => {
  test('chn: wx, google, apple, email, qq; euro and us: google, email', () => {
    expect(REGIONS.chn.loginTypes).toEqual(['wx', 'google', 'apple', 'email', 'qq']);
    expect(REGIONS.euro.loginTypes).toEqual(['google', 'email']);
    expect(REGIONS.us.loginTypes).toEqual(['google', 'email']);
  });
  test('an allowed login type is kept', () => {
    expect(resolveLoginType('chn', 'wx')).toBe('wx');
    expect(resolveLoginType('us', 'google')).toBe('google');
  });
  test('a login type not allowed for the region falls back to email', () => {
    expect(resolveLoginType('euro', 'wx')).toBe('email');
    expect(resolveLoginType('us', 'qq')).toBe('email');
    expect(resolveLoginType('chn', 'github')).toBe('email');
    expect(resolveLoginType('chn', null)).toBe('email');
  });
  test('primary login is email when the browser language is neither English nor Chinese', () => {
    expect(primaryLoginType('euro', 'de-DE')).toBe('email');
    expect(primaryLoginType('chn', 'ja')).toBe('email');
    expect(primaryLoginType('us', undefined)).toBe('email');
  });
  test('otherwise the region’s first login type', () => {
    expect(primaryLoginType('chn', 'zh-CN')).toBe('wx');
    expect(primaryLoginType('chn', 'en-US')).toBe('wx');
    expect(primaryLoginType('us', 'en')).toBe('google');
    expect(primaryLoginType('euro', 'zh-Hant-TW')).toBe('google');
  });
});

describe('region table', () => {
  test('default language: Chinese in the China region, otherwise English', () => {
    expect(defaultLanguage('chn')).toBe('zh-CN');
    expect(defaultLanguage('euro')).toBe('en');
    expect(defaultLanguage('us')).toBe('en');
  });
  test('the membership page shows a variant outside China', () => {
    expect(REGIONS.chn.membershipPage).toBe('domestic');
    expect(REGIONS.euro.membershipPage).toBe('international');
    expect(REGIONS.us.membershipPage).toBe('international');
  });
  test('extension install links differ by region and cover every browser', () => {
    expect(REGIONS.chn.extensionLinks.chrome).not.toBe(REGIONS.us.extensionLinks.chrome);
    for (const region of ['chn', 'euro', 'us'] as const) {
      expect(Object.keys(REGIONS[region].extensionLinks).sort()).toEqual([
        'chrome',
        'edge',
        'firefox',
        'safari',
      ]);
    }
    expect(REGIONS.us.extensionLinks.chrome).toMatch(/^https:\/\/chromewebstore\.google\.com\//);
    expect(REGIONS.euro.extensionLinks.firefox).toMatch(/^https:\/\/addons\.mozilla\.org\//);
  });
  test('the regulatory registration note is shown only in chn, as an i18n key', () => {
    expect(REGIONS.chn.footerNoteKey).toMatch(/^footer\./);
    expect(REGIONS.euro.footerNoteKey).toBeNull();
    expect(REGIONS.us.footerNoteKey).toBeNull();
  });
  test('isRegion', () => {
    expect(['chn', 'euro', 'us'].every(isRegion)).toBe(true);
    expect(isRegion('eu')).toBe(false);
  });
});

describe('language choice', () => {
  test('a supported stored language wins, in any region', () => {
    expect(pickLanguage('chn', 'fr', ['en'])).toBe('fr');
    expect(pickLanguage('us', 'zh-tw', ['en'])).toBe('zh-TW');
  });
  test('an unsupported stored language is ignored', () =>
    expect(pickLanguage('us', 'hi', ['de-AT'])).toBe('de'));
  test('in chn without a stored language: zh-CN, whatever the browser says', () =>
    expect(pickLanguage('chn', null, ['en-US', 'fr'])).toBe('zh-CN'));
  test('elsewhere: the first browser language that matches one of the 17', () => {
    expect(pickLanguage('euro', null, ['hi-IN', 'pt-BR', 'en'])).toBe('pt');
    expect(pickLanguage('us', undefined, ['ja-JP'])).toBe('ja');
  });
  test('Chinese variants', () => {
    for (const tag of ['zh-Hant', 'zh-HK', 'zh-TW', 'zh-Hant-HK', 'zh-MO', 'zh_TW']) {
      expect(matchLanguage(tag), tag).toBe('zh-TW');
    }
    for (const tag of ['zh', 'zh-Hans', 'zh-CN', 'zh-SG', 'zh-Hans-CN'])
      expect(matchLanguage(tag), tag).toBe('zh-CN');
  });
  test('no match falls back to the region default', () => {
    expect(pickLanguage('us', null, ['hi', 'sw'])).toBe('en');
    expect(pickLanguage('euro', '', [])).toBe('en');
  });
  test('unknown tags match nothing', () => {
    expect(matchLanguage('')).toBeNull();
    expect(matchLanguage('xx-YY')).toBeNull();
  });
});

describe("the browser's region (the extension's default server)", () => {
  test.each([
    [['zh-CN', 'en'], 'Asia/Shanghai', 'chn'],
    [['en-US'], 'Asia/Shanghai', 'chn'],
    [['zh-CN'], 'America/New_York', 'chn'],
    [['zh-TW'], 'Asia/Taipei', 'us'],
    [['zh-CN'], 'Asia/Hong_Kong', 'us'],
    [['de-DE', 'en'], 'Europe/Berlin', 'euro'],
    [['en-GB'], 'Europe/London', 'euro'],
    [['en-US'], 'America/Los_Angeles', 'us'],
    [[], 'UTC', 'us'],
  ] as const)('%j in %s → %s', (languages, zone, region) => {
    expect(regionOfBrowser(languages, zone)).toBe(region);
  });

  test('each region has an https site', () => {
    for (const config of Object.values(REGIONS)) expect(config.site).toMatch(/^https:\/\//);
  });
});
