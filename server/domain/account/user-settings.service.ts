import type { EntityManager } from '@mikro-orm/postgresql';
import { isEnumValue, TextTooltipStyle } from '../../../src/enums.ts';
import { type Shortcuts, zShortcuts } from '../../../src/schemas/extension.ts';
import {
  type UpdateUserSettingsInput,
  type UserSettings,
  zStoredTheme,
} from '../../../src/schemas/user-settings.ts';
import { clock } from '../../clock.ts';
import { User, UserSetting } from '../../db/entities/index.ts';

// The colour theme page's settings: the theme is a column of the user (the spec's 'y' / 'n'),
// the tooltip style and the six colours a `user_setting` row, made on the first change and
// removed by a reset (or with the account: its foreign key cascades).

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
}

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
  };
}

export async function getUserSettings(em: EntityManager, user: User): Promise<UserSettings> {
  const [row] = await em.execute<SettingsRow[]>(
    `select u.theme, s.text_tooltip_style, s.c1, s.c2, s.c3, s.c4, s.c5, s.c6, s.shortcuts
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
 * as do the extension's shortcuts (another page's).
 */
export async function resetUserSettings(em: EntityManager, user: User): Promise<UserSettings> {
  await em.nativeUpdate(
    UserSetting,
    { user: user.id },
    { textTooltipStyle: null, c1: null, c2: null, c3: null, c4: null, c5: null, c6: null },
  );
  return getUserSettings(em, user);
}
