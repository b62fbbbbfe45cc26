// The settings router (the colour theme page): theme, c1–c6 and the text tooltip style, read and
// changed field by field, validated at the boundary (over HTTP: a translated 400 and nothing
// stored), each account's own, reset to the defaults, and gone with the account.
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../server/app.ts';
import { User, UserSetting } from '../../server/db/entities/index.ts';
import { hashPassword } from '../../server/domain/auth/password.ts';
import { translator } from '../../server/i18n.ts';
import { TextTooltipStyle, Theme } from '../../src/enums.ts';
import type { UserSettings } from '../../src/schemas/user-settings.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { signedInUser } from '../helpers/users.ts';
import { callProcedure } from '../security/router-inventory.ts';

let deps: TestDeps;
let app: Express;

beforeAll(async () => {
  deps = await createTestDeps();
  app = createApp(deps);
});
afterAll(() => deps.close());

type Reader = Awaited<ReturnType<typeof signedInUser>>;

const DEFAULTS: UserSettings = {
  theme: null,
  textTooltipStyle: null,
  c1: null,
  c2: null,
  c3: null,
  c4: null,
  c5: null,
  c6: null,
  shortcuts: null,
  readerFont: null,
  readerFontSize: null,
  readerLineHeight: null,
  readerWidth: null,
  readerJustify: null,
};

/** The stored row of an account, or null when it has none. */
async function rowOf(reader: Reader) {
  const row = await deps.orm.em.fork().findOne(UserSetting, { user: reader.user.id });
  return row && { textTooltipStyle: row.textTooltipStyle, c1: row.c1, c3: row.c3, c6: row.c6 };
}

const themeOf = async (reader: Reader) =>
  (await deps.orm.em.fork().findOneOrFail(User, { id: reader.user.id })).theme ?? null;

describe('reading and changing', () => {
  test('a new account has every default and no row', async () => {
    const reader = await signedInUser(deps);
    await expect(reader.caller.settings.get()).resolves.toEqual(DEFAULTS);
    expect(await rowOf(reader)).toBeNull();
  });

  test('an update changes only the fields it names; colours are kept upper-case; null is the default again', async () => {
    const reader = await signedInUser(deps);
    await expect(reader.caller.settings.update({ c3: '#12abef' })).resolves.toEqual({
      ...DEFAULTS,
      c3: '#12ABEF',
    });
    await reader.caller.settings.update({ textTooltipStyle: TextTooltipStyle.autoHighlight, c6: '#000000' });
    await expect(reader.caller.settings.get()).resolves.toEqual({
      ...DEFAULTS,
      textTooltipStyle: TextTooltipStyle.autoHighlight,
      c3: '#12ABEF',
      c6: '#000000',
    });
    await reader.caller.settings.update({ c3: null });
    expect(await rowOf(reader)).toEqual({
      textTooltipStyle: TextTooltipStyle.autoHighlight,
      c1: null,
      c3: null,
      c6: '#000000',
    });
    // Nothing named, nothing changed.
    await expect(reader.caller.settings.update({})).resolves.toMatchObject({ c6: '#000000' });
  });

  test("the theme is the account's, stored as the spec has it: 'y' dark, 'n' light, null follows the system", async () => {
    const reader = await signedInUser(deps);
    await expect(reader.caller.settings.update({ theme: Theme.dark })).resolves.toMatchObject({ theme: 'y' });
    expect(await themeOf(reader)).toBe('y');
    await reader.caller.settings.update({ theme: Theme.light });
    expect(await themeOf(reader)).toBe('n');
    // A theme alone makes no settings row.
    expect(await rowOf(reader)).toBeNull();
    await reader.caller.settings.update({ theme: null });
    expect(await themeOf(reader)).toBeNull();
    await expect(reader.caller.settings.get()).resolves.toEqual(DEFAULTS);
  });

  test('two first changes at once both land in the one row', async () => {
    const reader = await signedInUser(deps);
    await Promise.all([
      reader.caller.settings.update({ c1: '#111111' }),
      reader.caller.settings.update({ c6: '#666666' }),
      reader.caller.settings.update({ textTooltipStyle: TextTooltipStyle.hide }),
    ]);
    expect(await rowOf(reader)).toEqual({
      textTooltipStyle: TextTooltipStyle.hide,
      c1: '#111111',
      c3: null,
      c6: '#666666',
    });
  });

  test('reset puts colours and tooltip style back to the defaults and keeps the theme and the shortcuts', async () => {
    const reader = await signedInUser(deps);
    const shortcuts = { highlight: 'Ctrl+Shift+1', annotate: 'Alt+N', save: 'Alt+Shift+S' };
    await reader.caller.settings.update({
      theme: Theme.dark,
      textTooltipStyle: TextTooltipStyle.defaultColour,
      c2: '#ABCDEF',
      shortcuts,
    });
    await expect(reader.caller.settings.reset()).resolves.toEqual({ ...DEFAULTS, theme: 'y', shortcuts });
    // Reset again: nothing more to reset, the same answer.
    await expect(reader.caller.settings.reset()).resolves.toEqual({ ...DEFAULTS, theme: 'y', shortcuts });
  });

  test('a user without settings resets to the defaults', async () => {
    const reader = await signedInUser(deps);
    await expect(reader.caller.settings.reset()).resolves.toEqual(DEFAULTS);
    expect(await rowOf(reader)).toBeNull();
  });

  test('values this page cannot show (written by hand) read as the defaults', async () => {
    const reader = await signedInUser(deps);
    await reader.caller.settings.update({ c1: '#101010' });
    await deps.orm.em
      .fork()
      .execute(`update "user_setting" set "text_tooltip_style" = 9 where "user_id" = ?`, [reader.user.id]);
    await deps.orm.em.fork().execute(`update "user" set "theme" = 'x' where "id" = ?`, [reader.user.id]);
    await expect(reader.caller.settings.get()).resolves.toEqual({ ...DEFAULTS, c1: '#101010' });
  });
});

describe('what is refused, over HTTP', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['a NUL in a colour', { c3: '#12AB\u0000F' }, 'errors.invalidCharacters'],
    ['a lone surrogate in a colour', { c3: '#12AB\uD800' }, 'errors.invalidCharacters'],
    ['a colour without #', { c3: '12ABEF' }, 'errors.invalidInput'],
    ['a short colour', { c3: '#12ABE' }, 'errors.invalidInput'],
    ['a colour with alpha', { c3: '#12ABEF98' }, 'errors.invalidInput'],
    ['three digits', { c3: '#FFF' }, 'errors.invalidInput'],
    ['not hex digits', { c3: '#GGGGGG' }, 'errors.invalidInput'],
    ['a colour name', { c3: 'red' }, 'errors.invalidInput'],
    ['a colour as a number', { c3: 0x12abef }, 'errors.invalidInput'],
    ['a long string', { c3: `#${'A'.repeat(10_000)}` }, 'errors.invalidInput'],
    ['a tooltip style out of the enum', { textTooltipStyle: 5 }, 'errors.invalidInput'],
    ['a tooltip style as text', { textTooltipStyle: '1' }, 'errors.invalidInput'],
    ['a theme by name', { theme: 'dark' }, 'errors.invalidInput'],
    ["the theme 'system' (null follows the system)", { theme: 'system' }, 'errors.invalidInput'],
    ['an unknown field', { c7: '#123456' }, 'errors.invalidInput'],
    ['one good field beside a bad one', { c1: '#123456', c2: '#12345' }, 'errors.invalidInput'],
    ...(
      [
        ['a bare letter as a shortcut', 'H', 'errors.shortcutInvalid'],
        ['a shortcut with two keys', 'Alt+H+J', 'errors.shortcutInvalid'],
        ['a lower-case shortcut', 'alt+h', 'errors.shortcutInvalid'],
        ['a NUL in a shortcut', 'Alt+\u0000', 'errors.invalidCharacters'],
        ['a long shortcut', `Alt+${'H'.repeat(5000)}`, 'errors.shortcutInvalid'],
      ] as const
    ).map(([what, highlight, key]): [string, Record<string, unknown>, string] => [
      what,
      { shortcuts: { highlight, annotate: 'Alt+N', save: 'Alt+S' } },
      key,
    ]),
    [
      'the same shortcut twice',
      { shortcuts: { highlight: 'Alt+N', annotate: 'Alt+N', save: 'Alt+S' } },
      'errors.shortcutTaken',
    ],
    [
      'shortcuts missing one',
      { shortcuts: { highlight: 'Alt+H', annotate: 'Alt+N' } },
      'errors.invalidInput',
    ],
  ];

  test.each(cases)('%s: a translated 400, nothing stored', async (_what, input, key) => {
    const reader = await signedInUser(deps);
    await reader.caller.settings.update({ c1: '#0A0A0A' });
    const before = await rowOf(reader);
    const answer = await callProcedure(
      app,
      { path: 'settings.update', type: 'mutation' },
      input,
      reader.token,
    );
    expect(answer.status).toBe(400);
    expect(answer.error).toMatchObject({ appCode: 'BAD_REQUEST', messageKey: key });
    const text = translator('en')(key);
    expect(text).not.toBe(key);
    expect(text.length).toBeGreaterThan(0);
    expect(await rowOf(reader)).toEqual(before);
    expect(await themeOf(reader)).toBeNull();
  });

  test('a good update over HTTP answers 200 with the settings', async () => {
    const reader = await signedInUser(deps);
    const answer = await callProcedure(
      app,
      { path: 'settings.update', type: 'mutation' },
      { c4: '#fedcba' },
      reader.token,
    );
    expect(answer.status).toBe(200);
    expect(answer.data).toEqual({ ...DEFAULTS, c4: '#FEDCBA' });
  });

  test('signed out, nothing is read or changed', async () => {
    const reader = await signedInUser(deps);
    for (const [path, type, input] of [
      ['settings.get', 'query', undefined],
      ['settings.update', 'mutation', { c1: '#123456' }],
      ['settings.reset', 'mutation', undefined],
    ] as const) {
      const answer = await callProcedure(app, { path, type }, input, null);
      expect(answer.status, path).toBe(401);
    }
    expect(await rowOf(reader)).toBeNull();
  });
});

describe('whose settings', () => {
  test("changing and resetting one account's settings leaves another's untouched", async () => {
    const alice = await signedInUser(deps);
    const bob = await signedInUser(deps);
    await alice.caller.settings.update({
      theme: Theme.light,
      textTooltipStyle: TextTooltipStyle.hide,
      c1: '#A11CE0',
    });
    const alices = await alice.caller.settings.get();
    await bob.caller.settings.update({ theme: Theme.dark, c1: '#B0B000', textTooltipStyle: 4 });
    await expect(bob.caller.settings.get()).resolves.toMatchObject({ c1: '#B0B000', theme: 'y' });
    await bob.caller.settings.reset();
    await expect(alice.caller.settings.get()).resolves.toEqual(alices);
    expect(await rowOf(alice)).toEqual({
      textTooltipStyle: TextTooltipStyle.hide,
      c1: '#A11CE0',
      c3: null,
      c6: null,
    });
    expect(await themeOf(alice)).toBe('n');
  });

  test('deleting the account removes its row (and no one else’s)', async () => {
    const leaver = await signedInUser(deps);
    const stayer = await signedInUser(deps);
    const password = 'a long enough password';
    await deps.orm.em
      .fork()
      .nativeUpdate(User, { id: leaver.user.id }, { passwordHash: await hashPassword(password) });
    await leaver.caller.settings.update({ c2: '#222222' });
    await stayer.caller.settings.update({ c2: '#333333' });
    await leaver.caller.account.delete({ password });
    await expect(deps.orm.em.fork().count(UserSetting, { user: leaver.user.id })).resolves.toBe(0);
    expect(await rowOf(stayer)).toMatchObject({ c1: null, c3: null });
    await expect(stayer.caller.settings.get()).resolves.toMatchObject({ c2: '#333333' });
  });
});
