import type { EntityManager } from '@mikro-orm/postgresql';
import { isEnumValue, TextTooltipStyle } from '../../../src/enums.ts';
import { type Shortcuts, zShortcuts } from '../../../src/schemas/extension.ts';
import {
  type UpdateUserSettingsInput,
  type UserSettings,
  zReaderTypographySettings,
  zStoredTheme,
} from '../../../src/schemas/user-settings.ts';
import { clock } from '../../clock.ts';
import { User, UserSetting } from '../../db/entities/index.ts';

// The colour theme page's settings: the theme is a column of the user (the spec's 'y' / 'n'),
// the tooltip style, the six colours (and the extension's shortcuts, the reader's typography) a
// `user_setting` row, made on the first change and removed with the account (its foreign key
// cascades).

type SettingFields = Omit<UpdateUserSettingsInput, 'theme'>;

interface SettingsRow {
  theme: string | null;
  text_tooltip_style: number | null;
  c1: string | null;
  c2: string | null;
  c3: string | null;
  c4: string | null;
  c5: string | null;
  c6: string | null;
  shortcuts: Shortcuts | null;
  reader_font: string | null;
  reader_font_size: number | null;
  reader_line_height: number | null;
  reader_width: number | null;
  reader_justify: boolean | null;
}

const typography = zReaderTypographySettings.shape;

/** Values written before this page existed (or by hand) that it cannot show read as the default. */
function toSettings(row: SettingsRow): UserSettings {
  const theme = zStoredTheme.safeParse(row.theme);
  return {
    theme: theme.success ? theme.data : null,
    textTooltipStyle: isEnumValue(TextTooltipStyle, row.text_tooltip_style) ? row.text_tooltip_style : null,
    c1: row.c1,
    c2: row.c2,
    c3: row.c3,
    c4: row.c4,
    c5: row.c5,
    c6: row.c6,
    shortcuts: zShortcuts.safeParse(row.shortcuts).data ?? null,
    readerFont: typography.readerFont.safeParse(row.reader_font).data ?? null,
    readerFontSize: typography.readerFontSize.safeParse(row.reader_font_size).data ?? null,
    // A real holds 1.85 as 1.8500000238…: back to the hundredth it was saved as.
    readerLineHeight:
      typography.readerLineHeight.safeParse(
        row.reader_line_height == null ? null : Math.round(row.reader_line_height * 100) / 100,
      ).data ?? null,
    readerWidth: typography.readerWidth.safeParse(row.reader_width).data ?? null,
    readerJustify: typography.readerJustify.safeParse(row.reader_justify).data ?? null,
  };
}

export async function getUserSettings(em: EntityManager, user: User): Promise<UserSettings> {
  const [row] = await em.execute<SettingsRow[]>(
    `select u.theme, s.text_tooltip_style, s.c1, s.c2, s.c3, s.c4, s.c5, s.c6, s.shortcuts,
       s.reader_font, s.reader_font_size, s.reader_line_height, s.reader_width, s.reader_justify
     from "user" u left join "user_setting" s on s.user_id = u.id
     where u.id = ?`,
    [user.id],
  );
  if (!row) throw new Error(`no user ${user.id}`);
  return toSettings(row);
}

/** Changes only the fields given; null puts one back to its default. */
export async function updateUserSettings(
  em: EntityManager,
  user: User,
  input: UpdateUserSettingsInput,
): Promise<UserSettings> {
  const { theme, ...rest } = input;
  const fields: SettingFields = Object.fromEntries(
    Object.entries(rest).filter(([, value]) => value !== undefined),
  );
  const names = Object.keys(fields) as (keyof SettingFields)[];
  await em.transactional(async (tem) => {
    if (theme !== undefined) await tem.nativeUpdate(User, { id: user.id }, { theme });
    if (names.length === 0) return;
    // One statement, so two first changes at once both land in the one row.
    await tem
      .createQueryBuilder(UserSetting)
      .insert({ user: user.id, ...fields, updatedAt: clock.now() })
      .onConflict(['user'])
      .merge([...names, 'updatedAt'])
      .execute('run');
  });
  return getUserSettings(em, user);
}

/**
 * Colours and tooltip style back to their defaults; the theme is the page's own choice and stays,
 * as do the extension's shortcuts and the reader's typography (other screens').
 */
export async function resetUserSettings(em: EntityManager, user: User): Promise<UserSettings> {
  await em.nativeUpdate(
    UserSetting,
    { user: user.id },
    { textTooltipStyle: null, c1: null, c2: null, c3: null, c4: null, c5: null, c6: null },
  );
  return getUserSettings(em, user);
}
