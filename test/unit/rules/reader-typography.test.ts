import { describe, expect, test } from 'vitest';
import {
  clampToBounds,
  defaultTypography,
  isCjkLanguage,
  READER_FONT_SIZE,
  READER_LINE_HEIGHT,
  READER_WIDTH,
} from '../../../src/rules/reader-typography.ts';
import { zUpdateUserSettingsInput } from '../../../src/schemas/user-settings.ts';

describe('reader typography rules', () => {
  test('Chinese, Japanese and Korean by their language tags, nothing else', () => {
    for (const lang of ['zh', 'zh-CN', 'zh-Hant-TW', 'ja', 'JA-jp', 'ko', 'ko-KR'])
      expect(isCjkLanguage(lang), lang).toBe(true);
    for (const lang of ['en', 'zu', 'jav', 'kok', 'ar', '', null, undefined])
      expect(isCjkLanguage(lang), String(lang)).toBe(false);
  });

  test('the defaults: one face and size, more leading and justified lines for CJK', () => {
    expect(defaultTypography('en')).toEqual({
      font: 'system',
      fontSize: 19,
      lineHeight: 1.75,
      width: 680,
      justify: false,
    });
    expect(defaultTypography('ja')).toMatchObject({ lineHeight: 1.85, justify: true });
    expect(defaultTypography(undefined)).toMatchObject({ justify: false });
  });

  test('a step stays inside the bounds and on the hundredth', () => {
    expect(clampToBounds(1.7 + 0.1, READER_LINE_HEIGHT)).toBe(1.8);
    expect(clampToBounds(2.15 + 0.1, READER_LINE_HEIGHT)).toBe(READER_LINE_HEIGHT.max);
    expect(clampToBounds(13, READER_FONT_SIZE)).toBe(READER_FONT_SIZE.min);
    expect(clampToBounds(1040, READER_WIDTH)).toBe(READER_WIDTH.max);
  });

  test('every default and every value a step can reach is one the settings accept', () => {
    const accepted = (input: Record<string, unknown>) => zUpdateUserSettingsInput.safeParse(input).success;
    for (const lang of ['en', 'zh']) {
      const d = defaultTypography(lang);
      expect(
        accepted({
          readerFont: d.font,
          readerFontSize: d.fontSize,
          readerLineHeight: d.lineHeight,
          readerWidth: d.width,
          readerJustify: d.justify,
        }),
      ).toBe(true);
      for (
        let at = d.lineHeight, i = 0;
        i < 20;
        i++, at = clampToBounds(at + READER_LINE_HEIGHT.step, READER_LINE_HEIGHT)
      )
        expect(accepted({ readerLineHeight: at }), String(at)).toBe(true);
      for (
        let at = d.lineHeight, i = 0;
        i < 20;
        i++, at = clampToBounds(at - READER_LINE_HEIGHT.step, READER_LINE_HEIGHT)
      )
        expect(accepted({ readerLineHeight: at }), String(at)).toBe(true);
      for (let at = d.width, i = 0; i < 20; i++, at = clampToBounds(at + READER_WIDTH.step, READER_WIDTH))
        expect(accepted({ readerWidth: at }), String(at)).toBe(true);
    }
  });
});
