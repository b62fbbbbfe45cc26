import { type CSSProperties, useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { defaultTypography, type ReaderTypography } from '../../../src/rules/reader-typography.ts';
import type { ReaderTypographySettings } from '../../../src/schemas/user-settings.ts';
import { useUserSettings } from '../account/use-user-settings.ts';

const UNCHOSEN: ReaderTypographySettings = {
  readerFont: null,
  readerFontSize: null,
  readerLineHeight: null,
  readerWidth: null,
  readerJustify: null,
};

/**
 * The reader's typography for an article in `lang`: the account's choices over the defaults for
 * that language, or for the app's when the article does not say (its text is then in the app's
 * language, as its lang attribute is). A change shows at once (the settings' optimistic update)
 * and is kept with the account.
 */
export function useReaderTypography(lang: string | null | undefined) {
  const { i18n } = useTranslation();
  const { settings, update } = useUserSettings();
  const defaults = defaultTypography(lang ?? i18n.language);
  const value: ReaderTypography = {
    font: settings?.readerFont ?? defaults.font,
    fontSize: settings?.readerFontSize ?? defaults.fontSize,
    lineHeight: settings?.readerLineHeight ?? defaults.lineHeight,
    width: settings?.readerWidth ?? defaults.width,
    justify: settings?.readerJustify ?? defaults.justify,
  };
  const chosen = Object.keys(UNCHOSEN).some((field) => settings?.[field as keyof typeof UNCHOSEN] != null);
  const reset = useCallback(() => update(UNCHOSEN), [update]);
  return { value, chosen, change: update, reset };
}

/** What the reader's element carries: custom properties and attributes the stylesheet reads. */
export function typographyAttributes(value: ReaderTypography) {
  return {
    'data-font': value.font,
    'data-justify': value.justify ? 'on' : 'off',
    style: {
      '--reader-font-size': `${value.fontSize}px`,
      '--reader-line-height': String(value.lineHeight),
      '--reader-width': `${value.width}px`,
    } as CSSProperties,
  };
}
