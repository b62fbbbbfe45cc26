import { z } from 'zod';
import { ColourSlot, type ColourSlotField, TextTooltipStyle, Theme } from '../enums.ts';
import { STORED_COLOUR_PATTERN } from '../rules/hex-colour.ts';
import {
  type Bounds,
  READER_FONT_SIZE,
  READER_FONTS,
  READER_LINE_HEIGHT,
  READER_WIDTH,
} from '../rules/reader-typography.ts';
import { zText } from '../rules/text.ts';
import { zShortcuts } from './extension.ts';

// The colour theme page (/personSetting/color): the theme, the six highlight colours and the text
// tooltip style of an account, the extension's shortcuts (/personSetting/extsettings) and the
// reader's typography (its "Aa" panel). Null is "the default": the system's theme, the slot's
// default colour (DEFAULT_SLOT_COLOURS), the "more tools" tooltip, DEFAULT_SHORTCUTS,
// defaultTypography().

/** The spec's colour fields, c1..c6 (slot ids 1..6). */
export const COLOUR_FIELDS = Object.keys(ColourSlot) as ColourSlotField[];

/** A highlight colour as stored: '#RRGGBB', upper-cased (the alpha suffixes are added when drawn). */
export const zHexColour = zText()
  .max(7, 'errors.invalidInput')
  .regex(STORED_COLOUR_PATTERN, 'errors.invalidInput')
  .transform((hex) => hex.toUpperCase());

/** Stored as the spec has it: 'y' dark, 'n' light; null follows the system. */
export const zStoredTheme = z.enum([Theme.dark, Theme.light]);
export type StoredTheme = z.infer<typeof zStoredTheme>;

export const zTooltipStyle = z.literal(Object.values(TextTooltipStyle));

/** A number inside its bounds; whole pixels, line heights to the hundredth. */
const bounded = ({ min, max }: Bounds, whole: boolean) =>
  (whole ? z.number().int() : z.number().multipleOf(0.01))
    .min(min, 'errors.invalidInput')
    .max(max, 'errors.invalidInput');

/** The reader's typography (src/rules/reader-typography.ts); null is the default. */
export const zReaderTypographySettings = z.object({
  readerFont: z.enum(READER_FONTS).nullable(),
  readerFontSize: bounded(READER_FONT_SIZE, true).nullable(),
  readerLineHeight: bounded(READER_LINE_HEIGHT, false).nullable(),
  readerWidth: bounded(READER_WIDTH, true).nullable(),
  readerJustify: z.boolean().nullable(),
});
export type ReaderTypographySettings = z.infer<typeof zReaderTypographySettings>;

const colours = <T extends z.ZodType>(colour: T) =>
  Object.fromEntries(COLOUR_FIELDS.map((field) => [field, colour])) as Record<ColourSlotField, T>;

export const zUserSettings = z.object({
  theme: zStoredTheme.nullable(),
  textTooltipStyle: zTooltipStyle.nullable(),
  ...colours(z.string().nullable()),
  /** The browser extension's keyboard shortcuts (/personSetting/extsettings). */
  shortcuts: z.object({ highlight: z.string(), annotate: z.string(), save: z.string() }).nullable(),
  ...zReaderTypographySettings.shape,
});
export type UserSettings = z.infer<typeof zUserSettings>;

/** Any of the fields, each a value or null (back to its default); unknown fields are refused. */
export const zUpdateUserSettingsInput = z.strictObject({
  theme: zStoredTheme.nullable().optional(),
  textTooltipStyle: zTooltipStyle.nullable().optional(),
  ...colours(zHexColour.nullable().optional()),
  shortcuts: zShortcuts.nullable().optional(),
  ...zReaderTypographySettings.partial().shape,
});
export type UpdateUserSettingsInput = z.input<typeof zUpdateUserSettingsInput>;
