import { defineEntity, p } from '@mikro-orm/core';
import type { Shortcuts } from '../../../src/schemas/extension.ts';
import { clock } from '../../clock.ts';
import { User } from './user.entity.ts';

/** A user's reading preferences kept on the server (null: the default). */
export const UserSettingSchema = defineEntity({
  name: 'UserSetting',
  tableName: 'user_setting',
  properties: {
    user: () => p.oneToOne(User).primary().deleteRule('cascade'),
    /** Spec: more tools 1, hide 2, default colour 3, auto highlight 4. */
    textTooltipStyle: p.smallint().nullable(),
    /** The six highlight colours, '#RRGGBB'. */
    c1: p.string().length(7).nullable(),
    c2: p.string().length(7).nullable(),
    c3: p.string().length(7).nullable(),
    c4: p.string().length(7).nullable(),
    c5: p.string().length(7).nullable(),
    c6: p.string().length(7).nullable(),
    /** The browser extension's keyboard shortcuts (src/schemas/extension.ts). */
    shortcuts: p.json<Shortcuts>().nullable(),
    /** The reader's typography (src/rules/reader-typography.ts). */
    readerFont: p.string().length(16).nullable(),
    readerFontSize: p.smallint().nullable(),
    readerLineHeight: p.float().nullable(),
    readerWidth: p.smallint().nullable(),
    readerJustify: p.boolean().nullable(),
    updatedAt: p
      .datetime()
      .onCreate(() => clock.now())
      .onUpdate(() => clock.now()),
  },
});

export class UserSetting extends UserSettingSchema.class {}
UserSettingSchema.setClass(UserSetting);
