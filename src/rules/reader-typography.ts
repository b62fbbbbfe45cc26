// The reader's typography: the choices a user has, their bounds and their defaults. The schemas
// (src/schemas/user-settings.ts), the server and the reader's panel all read them from here.

/** 'system' is the platform's own face, whose stacks carry good Chinese, Japanese and Korean faces. */
export const READER_FONTS = ['system', 'serif', 'sans'] as const;
export type ReaderFont = (typeof READER_FONTS)[number];

export interface Bounds {
  min: number;
  max: number;
  step: number;
}

/** The article's font size, in CSS pixels (a phone shows it a little smaller). */
export const READER_FONT_SIZE: Bounds = { min: 14, max: 28, step: 1 };
/** Line height, a multiple of the font size. */
export const READER_LINE_HEIGHT: Bounds = { min: 1.2, max: 2.2, step: 0.1 };
/** The widest the text column gets, in CSS pixels (a narrower screen narrows it further). */
export const READER_WIDTH: Bounds = { min: 480, max: 1000, step: 40 };

export interface ReaderTypography {
  font: ReaderFont;
  fontSize: number;
  lineHeight: number;
  width: number;
  justify: boolean;
}

/** Chinese, Japanese and Korean: set closer to the grid, with more leading and justified lines. */
export function isCjkLanguage(lang: string | null | undefined): boolean {
  return /^(zh|ja|ko)(-|$)/i.test(lang ?? '');
}

/** What a user who never chose sees; line height and justification suit the article's language. */
export function defaultTypography(lang: string | null | undefined): ReaderTypography {
  const cjk = isCjkLanguage(lang);
  return { font: 'system', fontSize: 19, lineHeight: cjk ? 1.85 : 1.75, width: 680, justify: cjk };
}

/** A value moved to its bounds, on the hundredth (so 1.7 + 0.1 is 1.8, not 1.8000000000000003). */
export function clampToBounds(value: number, { min, max }: Bounds): number {
  return Math.min(max, Math.max(min, Math.round(value * 100) / 100));
}
