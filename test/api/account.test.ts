import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { userFilesDir } from '../../jobs/maintenance.processor.ts';
import { type RunningWorkers, startWorkers } from '../../jobs/workers.ts';
import { clock } from '../../server/clock.ts';
import { AuthBinding, User } from '../../server/db/entities/index.ts';
import { findSignedIn } from '../../server/domain/auth/session.service.ts';
import { callerFor, jarOf } from '../helpers/context.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { makeClippedNote } from '../helpers/notes.ts';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp.ts';
import { waitFor } from '../helpers/wait.ts';

let deps: TestDeps;
let smtp: SmtpSink;
let workers: RunningWorkers;
const PASSWORD = 'a long enough password';
let ip = 0;

beforeAll(async () => {
  smtp = await startSmtpSink();
  deps = await createTestDeps({ SMTP_URL: smtp.url, DATA_DIR: `/tmp/margin-test-${process.pid}` });
  workers = await startWorkers(deps);
});
afterAll(async () => {
  await workers.close();
  await deps.close();
  await smtp.close();
});

async function account(email: string) {
  const caller = callerFor(deps, null, { ip: `198.51.100.${++ip}` });
  const since = smtp.messages.length;
  await caller.auth.sendCode({ email, purpose: 'register' });
  const code = await smtp.code(email, since);
  await caller.auth.register({ email, code, password: PASSWORD, repeatPassword: PASSWORD });
  const token = jarOf(caller).session?.token as string;
  const signedIn = await findSignedIn(deps.orm.em.fork(), token);
  if (!signedIn) throw new Error('no session');
  return { caller: callerFor(deps, signedIn), token, user: signedIn.user };
}

describe('account settings', () => {
  test('nickname: set, trimmed, validated; the anonymous rule follows it', async () => {
    const { caller } = await account('nick@example.test');
    await expect(caller.auth.me()).resolves.toMatchObject({ anonymous: true });
    await expect(caller.account.updateProfile({ nickname: '  Ada  ' })).resolves.toMatchObject({
      nickname: 'Ada',
      anonymous: false,
    });
    await expect(caller.account.updateProfile({ nickname: '   ' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(caller.account.updateProfile({ nickname: 'x'.repeat(33) })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  test('changing the password needs the old one and signs out the other sessions', async () => {
    const { caller, token } = await account('pw@example.test');
    const other = callerFor(deps, null, { ip: '198.51.100.250' });
    await other.auth.login({ email: 'pw@example.test', password: PASSWORD, rememberMe: false });
    await expect(
      caller.account.changePassword({
        oldPassword: 'wrong one!',
        password: 'new password 1',
        repeatPassword: 'new password 1',
      }),
    ).rejects.toMatchObject({ message: 'errors.passwordWrong' });
    await caller.account.changePassword({
      oldPassword: PASSWORD,
      password: 'new password 1',
      repeatPassword: 'new password 1',
    });
    expect(await findSignedIn(deps.orm.em.fork(), token)).not.toBeNull();
    expect(await findSignedIn(deps.orm.em.fork(), jarOf(other).session?.token)).toBeNull();
  });

  test('binding a new email needs the code sent to it; the last way to sign in cannot be removed', async () => {
    const { caller } = await account('old@example.test');
    const since = smtp.messages.length;
    await caller.account.sendBindCode({ email: 'new@example.test' });
    const code = await smtp.code('new@example.test', since);
    await expect(caller.account.bindEmail({ email: 'new@example.test', code })).resolves.toMatchObject({
      email: 'new@example.test',
    });
    await expect(caller.account.unbindEmail()).rejects.toMatchObject({ message: 'errors.lastLoginMethod' });
    await expect(caller.account.bindings()).resolves.toEqual({ email: 'new@example.test', providers: [] });
  });

  test('with a second way to sign in, the email can be unbound', async () => {
    const { caller, user } = await account('two-ways@example.test');
    const em = deps.orm.em.fork();
    em.create(AuthBinding, {
      user: user.id,
      provider: 'google',
      subject: 'sub-two-ways',
      email: 'two-ways@example.test',
    });
    await em.flush();
    await caller.account.unbindEmail();
    await expect(caller.auth.me()).resolves.toBeTruthy();
    expect((await deps.orm.em.fork().findOneOrFail(User, { id: user.id })).email).toBeNull();
    await expect(caller.account.unbindProvider({ provider: 'google' })).rejects.toMatchObject({
      message: 'errors.lastLoginMethod',
    });
  });

  test("a code sent for one user's binding cannot be used by another user", async () => {
    const alice = await account('alice@example.test');
    const mallory = await account('mallory@example.test');
    const since = smtp.messages.length;
    await alice.caller.account.sendBindCode({ email: 'alice-new@example.test' });
    const code = await smtp.code('alice-new@example.test', since);
    await expect(
      mallory.caller.account.bindEmail({ email: 'alice-new@example.test', code }),
    ).rejects.toMatchObject({
      message: 'errors.codeInvalid',
    });
  });
});

describe('deleting the account', () => {
  test('needs the password; then every row the user owns is gone and their files are removed', async () => {
    const keeper = await account('keeper@example.test');
    const leaver = await account('leaver@example.test');
    const em = deps.orm.em.fork();
    em.create(AuthBinding, { user: leaver.user.id, provider: 'google', subject: 'sub-leaver', email: null });
    await em.flush();
    // Notes, so their left-nav counts row exists and must go with them.
    await makeClippedNote(deps, leaver.user.id, { title: 'Leaving', text: 'text' });
    await makeClippedNote(deps, keeper.user.id, { title: 'Staying', text: 'text' });
    const files = userFilesDir(deps.config.dataDir, leaver.user.id);
    fs.mkdirSync(files, { recursive: true });
    fs.writeFileSync(path.join(files, 'export.md'), '# highlights');

    await expect(leaver.caller.account.delete({ password: 'not it at all' })).rejects.toMatchObject({
      message: 'errors.passwordWrong',
    });
    await leaver.caller.account.delete({ password: PASSWORD });
    expect(jarOf(leaver.caller).cleared).toBe(true);

    // Walk every table: no row may mention the deleted user's id in a user column, or their email.
    const connection = deps.orm.em.getConnection();
    const columns = await connection.execute<
      { table_name: string; column_name: string; data_type: string }[]
    >(
      `select table_name, column_name, data_type from information_schema.columns
       where table_schema = 'public' and table_name <> 'mikro_orm_migrations'`,
    );
    const tables = new Set(columns.map((c) => c.table_name));
    expect(tables.size).toBeGreaterThan(3);
    for (const table of tables) {
      const userColumns = columns.filter(
        (c) =>
          c.table_name === table &&
          (c.column_name === 'user_id' ||
            c.column_name === 'owner_id' ||
            (table === 'user' && c.column_name === 'id')),
      );
      for (const column of userColumns) {
        const [row] = await connection.execute<{ n: string }[]>(
          `select count(*)::text as n from "${table}" where "${column.column_name}" = ?`,
          [leaver.user.id],
        );
        expect(`${table}.${column.column_name}=${row?.n}`).toBe(`${table}.${column.column_name}=0`);
      }
      const textColumns = columns.filter((c) => c.table_name === table && /char|text/.test(c.data_type));
      for (const column of textColumns) {
        const [row] = await connection.execute<{ n: string }[]>(
          `select count(*)::text as n from "${table}" where "${column.column_name}" = ?`,
          ['leaver@example.test'],
        );
        expect(`${table}.${column.column_name}=${row?.n}`).toBe(`${table}.${column.column_name}=0`);
      }
    }
    // The other user is untouched.
    await expect(keeper.caller.auth.me()).resolves.toMatchObject({ email: 'keeper@example.test' });
    expect((await keeper.caller.notes.counts()).all).toBe(1);
    // The stored files go in a job.
    await waitFor(async () => (fs.existsSync(files) ? undefined : true), 20_000, 'the stored files to go');
    // And nobody can sign in as them.
    await expect(
      callerFor(deps, null, { ip: '198.51.100.251' }).auth.login({
        email: 'leaver@example.test',
        password: PASSWORD,
        rememberMe: false,
      }),
    ).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  test('an account with neither password nor email (third-party only) deletes with a recent sign-in', async () => {
    const { signedInUser } = await import('../helpers/users.ts');
    const { Session } = await import('../../server/db/entities/index.ts');
    const fresh = await signedInUser(deps);
    await deps.orm.em.fork().nativeUpdate(User, { id: fresh.user.id }, { email: null });
    const stale = await signedInUser(deps);
    await deps.orm.em.fork().nativeUpdate(User, { id: stale.user.id }, { email: null });
    await deps.orm.em
      .fork()
      .nativeUpdate(
        Session,
        { user: stale.user.id },
        { createdAt: new Date(clock.now().getTime() - 3600_000) },
      );
    const staleCaller = callerFor(
      deps,
      await findSignedIn(deps.orm.em.fork(), stale.token).then((s) => s ?? (undefined as never)),
    );
    await expect(staleCaller.account.delete({})).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'errors.signInAgain',
    });
    const freshCaller = callerFor(
      deps,
      await findSignedIn(deps.orm.em.fork(), fresh.token).then((s) => s ?? (undefined as never)),
    );
    await freshCaller.account.delete({});
    expect(await deps.orm.em.fork().count(User, { id: fresh.user.id })).toBe(0);
  });

  test('an account without a password can set one without an old password', async () => {
    const { signedInUser } = await import('../helpers/users.ts');
    const { caller, user } = await signedInUser(deps);
    await caller.account.changePassword({ password: 'brand new secret', repeatPassword: 'brand new secret' });
    await expect(
      callerFor(deps, null, { ip: '198.51.100.252' }).auth.login({
        email: user.email as string,
        password: 'brand new secret',
        rememberMe: false,
      }),
    ).resolves.toBeTruthy();
    await expect(
      caller.account.changePassword({ password: 'another secret 2', repeatPassword: 'another secret 2' }),
    ).rejects.toMatchObject({ message: 'errors.passwordWrong' });
  });

  test('every account procedure refuses anonymous callers', async () => {
    const anon = callerFor(deps);
    const calls = [
      () => anon.account.updateProfile({ nickname: 'x' }),
      () =>
        anon.account.changePassword({ oldPassword: 'a', password: 'bbbbbbbb', repeatPassword: 'bbbbbbbb' }),
      () => anon.account.sendBindCode({ email: 'x@example.test' }),
      () => anon.account.bindEmail({ email: 'x@example.test', code: '123456' }),
      () => anon.account.unbindEmail(),
      () => anon.account.bindings(),
      () => anon.account.unbindProvider({ provider: 'google' }),
      () => anon.account.sendDeleteCode(),
      () => anon.account.delete({ password: 'x' }),
      () => anon.auth.logout(),
      () => anon.auth.logoutEverywhere(),
    ];
    for (const call of calls) await expect(call()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
