import { describe, expect, test } from 'vitest';
import {
  BUILD,
  DAY_MS,
  EXTENSION_VERSIONS,
  isLanguage,
  LANGUAGE_CODES,
  LANGUAGES,
  LOGIN_COOKIE_KEY,
  LOGIN_COOKIE_MAX_AGE_MS,
  languageDirection,
  MINI_PROGRAM_VERSION,
  TRASH_RETENTION_MS,
} from '../../../src/constants.ts';

describe('build, cookie, version and trash constants', () => {
  test('build: app id 20, endpoint web, profile prod, version 25.9.12', () =>
    expect(BUILD).toMatchObject({ appId: 20, endpoint: 'web', profile: 'prod', version: '25.9.12' }));
  test('login cookie logininfo, one day', () => {
    expect(LOGIN_COOKIE_KEY).toBe('logininfo');
    expect(LOGIN_COOKIE_MAX_AGE_MS).toBe(86_400_000);
  });
  test('extension versions', () => {
    expect(EXTENSION_VERSIONS).toEqual({
      chrome: '25.4.307',
      edge: '25.4.307',
      firefox: '25.4.307',
      safari: '25.3.1',
    });
    expect(MINI_PROGRAM_VERSION).toBe('24.3.1');
  });
  test('trash keeps items for 30 days', () => expect(TRASH_RETENTION_MS).toBe(30 * DAY_MS));
});

describe('the 17 languages', () => {
  test('in the spec order', () =>
    expect(LANGUAGE_CODES).toEqual([
      'zh-CN',
      'zh-TW',
      'en',
      'ru',
      'de',
      'fr',
      'es',
      'ja',
      'ko',
      'it',
      'vi',
      'th',
      'pl',
      'nl',
      'pt',
      'ar',
      'tr',
    ]));
  test('each has a native name', () => {
    for (const l of LANGUAGES) expect(l.nativeName.length).toBeGreaterThan(0);
  });
  test('Arabic is right-to-left, the rest left-to-right', () => {
    expect(languageDirection('ar')).toBe('rtl');
    expect(LANGUAGES.filter((l) => l.dir === 'rtl').map((l) => l.code)).toEqual(['ar']);
  });
  test('Hindi is not one of them', () => {
    expect(isLanguage('hi')).toBe(false);
    expect(isLanguage('zh-CN')).toBe(true);
  });
});
