import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningWorkers, startWorkers } from '../../jobs/workers.ts';
import { clock } from '../../server/clock.ts';
import { Session, User, VerificationCode } from '../../server/db/entities/index.ts';
import { codeCooldownKey } from '../../server/domain/auth/codes.service.ts';
import { findSignedIn } from '../../server/domain/auth/session.service.ts';
import { callerFor, jarOf } from '../helpers/context.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp.ts';

let deps: TestDeps;
let smtp: SmtpSink;
let workers: RunningWorkers;

beforeAll(async () => {
  smtp = await startSmtpSink();
  deps = await createTestDeps({ SMTP_URL: smtp.url });
  workers = await startWorkers(deps);
});
afterAll(async () => {
  await workers.close();
  await deps.close();
  await smtp.close();
});

const PASSWORD = 'correct horse battery';
let ipCounter = 0;
/** Each scenario its own client IP, so per-IP limits don't couple tests. */
const anon = () => callerFor(deps, null, { ip: `198.51.100.${++ipCounter}` });

async function signUp(email: string, password = PASSWORD) {
  const since = smtp.messages.length;
  const caller = anon();
  await caller.auth.sendCode({ email, purpose: 'register' });
  const code = await smtp.code(email.toLowerCase(), since);
  const result = await caller.auth.register({ email, code, password, repeatPassword: password });
  return { ...result, token: jarOf(caller).session?.token as string };
}

async function signedInCaller(token: string) {
  const signedIn = await findSignedIn(deps.orm.em.fork(), token);
  if (!signedIn) throw new Error('not signed in');
  return callerFor(deps, signedIn);
}

describe('sign-up with an emailed code', () => {
  test('the code arrives by SMTP; registering creates an anonymous account and a session cookie', async () => {
    const { me, token } = await signUp('Ada@Example.test');
    expect(me).toMatchObject({
      email: 'ada@example.test',
      anonymous: true,
      membership: 'free',
      hasPassword: true,
    });
    expect(me.nickname).toMatch(/^nick\d+$/);
    expect(token).toBeTruthy();
    const mail = smtp.messages.at(-1);
    expect(mail?.raw).toContain('10 minutes');
  });

  test('the password is stored as an argon2id hash', async () => {
    const user = await deps.orm.em.fork().findOneOrFail(User, { email: 'ada@example.test' });
    expect(user.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  test('a wrong code is refused and changes nothing; after five wrong tries the code is dead', async () => {
    const email = 'wrong@example.test';
    const since = smtp.messages.length;
    const caller = anon();
    await caller.auth.sendCode({ email, purpose: 'register' });
    const code = await smtp.code(email, since);
    const wrong = code === '000000' ? '111111' : '000000';
    const attempt = (c: string) =>
      caller.auth.register({ email, code: c, password: PASSWORD, repeatPassword: PASSWORD });
    for (let i = 0; i < 4; i++)
      await expect(attempt(wrong)).rejects.toMatchObject({ message: 'errors.codeInvalid' });
    await expect(attempt(wrong)).rejects.toMatchObject({ message: 'errors.codeTooManyTries' });
    await expect(attempt(code)).rejects.toMatchObject({ message: 'errors.codeTooManyTries' });
    expect(await deps.orm.em.fork().count(User, { email })).toBe(0);
  });

  test('a code is single use', async () => {
    const email = 'once@example.test';
    const since = smtp.messages.length;
    const caller = anon();
    await caller.auth.sendCode({ email, purpose: 'register' });
    const code = await smtp.code(email, since);
    await caller.auth.register({ email, code, password: PASSWORD, repeatPassword: PASSWORD });
    await expect(
      anon().auth.register({ email, code, password: PASSWORD, repeatPassword: PASSWORD }),
    ).rejects.toMatchObject({ message: 'errors.codeInvalid' });
  });

  test('an expired code is refused', async () => {
    const email = 'late@example.test';
    const since = smtp.messages.length;
    const caller = anon();
    await caller.auth.sendCode({ email, purpose: 'register' });
    const code = await smtp.code(email, since);
    await deps.orm.em
      .fork()
      .nativeUpdate(VerificationCode, { email }, { expiresAt: new Date(clock.now().getTime() - 1000) });
    await expect(
      caller.auth.register({ email, code, password: PASSWORD, repeatPassword: PASSWORD }),
    ).rejects.toMatchObject({ message: 'errors.codeInvalid' });
  });

  test('asking again within 60 s is refused with the seconds left', async () => {
    const caller = anon();
    await caller.auth.sendCode({ email: 'twice@example.test', purpose: 'register' });
    await expect(
      caller.auth.sendCode({ email: 'twice@example.test', purpose: 'register' }),
    ).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      message: 'errors.codeCooldown',
    });
  });

  test('code requests are limited per IP', async () => {
    const caller = callerFor(deps, null, { ip: '192.0.2.99' });
    for (let i = 0; i < 30; i++)
      await caller.auth.sendCode({ email: `flood${i}@example.test`, purpose: 'register' });
    await expect(
      caller.auth.sendCode({ email: 'flood-last@example.test', purpose: 'register' }),
    ).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
    });
  });

  test('validation speaks the spec: "Email is Empty", "Password required", mismatched repeat', async () => {
    const caller = anon();
    await expect(caller.auth.sendCode({ email: '', purpose: 'register' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(
      caller.auth.login({ email: 'a@b.test', password: '', rememberMe: false }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(
      caller.auth.register({
        email: 'a@b.test',
        code: '123456',
        password: PASSWORD,
        repeatPassword: 'other',
      }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  test('registering an email that has an account is refused', async () => {
    await signUp('taken@example.test');
    await deps.redis.del(codeCooldownKey(deps.config.redisPrefix, 'register', 'taken@example.test'));
    await expect(signUp('taken@example.test')).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'errors.emailTaken',
    });
  });
});

describe('sign-in and sign-out', () => {
  test('Login Failed is the same answer for a wrong password and an unknown email', async () => {
    await signUp('bob@example.test');
    const wrongPassword = anon().auth.login({
      email: 'bob@example.test',
      password: 'nope-nope',
      rememberMe: false,
    });
    const unknown = anon().auth.login({
      email: 'nobody@example.test',
      password: 'nope-nope',
      rememberMe: false,
    });
    const [a, b] = await Promise.allSettled([wrongPassword, unknown]);
    expect(a.status).toBe('rejected');
    expect(b.status).toBe('rejected');
    const reason = (r: PromiseSettledResult<unknown>) => {
      const e = (r as PromiseRejectedResult).reason as { code: string; message: string };
      return { code: e.code, message: e.message };
    };
    expect(reason(a)).toEqual(reason(b));
    expect(reason(a)).toEqual({ code: 'UNAUTHORIZED', message: 'toast.loginFailed' });
  });

  test('recovery for an unknown email answers exactly like for a known one, and sends nothing', async () => {
    const since = smtp.messages.length;
    await expect(anon().auth.sendCode({ email: 'ghost@example.test', purpose: 'reset' })).resolves.toEqual({
      cooldownSeconds: 60,
    });
    // A mail is queued before sendCode answers; none was, so none can arrive later.
    expect(await deps.orm.em.fork().count(VerificationCode, { email: 'ghost@example.test' })).toBe(0);
    const queued = await deps.queues.mail.getJobs([
      'waiting',
      'delayed',
      'prioritized',
      'active',
      'completed',
      'failed',
    ]);
    expect(queued.filter((job) => job.data.to === 'ghost@example.test')).toEqual([]);
    expect(smtp.messages.slice(since).some((m) => m.to.includes('ghost@example.test'))).toBe(false);
  });

  test('sign-in sets a session; "remember me" keeps it thirty days instead of one', async () => {
    const caller = anon();
    await caller.auth.login({ email: 'bob@example.test', password: PASSWORD, rememberMe: false });
    expect(jarOf(caller).session?.maxAgeMs).toBe(86_400_000);
    const remembered = anon();
    await remembered.auth.login({ email: 'bob@example.test', password: PASSWORD, rememberMe: true });
    expect(jarOf(remembered).session?.maxAgeMs).toBe(30 * 86_400_000);
  });

  test('failed sign-ins back off per email and address; strangers cannot lock the owner out', async () => {
    await signUp('carol@example.test');
    const guesser = anon();
    for (let i = 0; i < 5; i++) {
      await expect(
        guesser.auth.login({ email: 'carol@example.test', password: 'bad-guess!', rememberMe: false }),
      ).rejects.toMatchObject({
        code: 'UNAUTHORIZED',
      });
    }
    await expect(
      guesser.auth.login({ email: 'carol@example.test', password: PASSWORD, rememberMe: false }),
    ).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
    });
    for (let i = 0; i < 10; i++) {
      await expect(
        anon().auth.login({ email: 'carol@example.test', password: 'bad-guess!', rememberMe: false }),
      ).rejects.toMatchObject({
        code: 'UNAUTHORIZED',
      });
    }
    await expect(
      anon().auth.login({ email: 'carol@example.test', password: PASSWORD, rememberMe: false }),
    ).resolves.toMatchObject({ me: { email: 'carol@example.test' } });
  });

  test('sign out revokes this session; sign out everywhere revokes all', async () => {
    const { token } = await signUp('dave@example.test');
    const second = anon();
    await second.auth.login({ email: 'dave@example.test', password: PASSWORD, rememberMe: false });
    const third = anon();
    await third.auth.login({ email: 'dave@example.test', password: PASSWORD, rememberMe: false });

    const first = await signedInCaller(token);
    await first.auth.logout();
    expect(jarOf(first).cleared).toBe(true);
    expect(await findSignedIn(deps.orm.em.fork(), token)).toBeNull();
    expect(await findSignedIn(deps.orm.em.fork(), jarOf(second).session?.token)).not.toBeNull();

    const other = await signedInCaller(jarOf(second).session?.token as string);
    await expect(other.auth.logoutEverywhere()).resolves.toEqual({ revoked: 2 });
    expect(await findSignedIn(deps.orm.em.fork(), jarOf(third).session?.token)).toBeNull();
    await expect(other.auth.me()).resolves.toBeTruthy(); // the caller object still holds its old context
    expect(await findSignedIn(deps.orm.em.fork(), jarOf(second).session?.token)).toBeNull();
  });

  test('an expired session signs nobody in', async () => {
    const { token } = await signUp('erin@example.test');
    await deps.orm.em
      .fork()
      .nativeUpdate(
        Session,
        { user: { email: 'erin@example.test' } },
        { expiresAt: new Date(clock.now().getTime() - 1) },
      );
    expect(await findSignedIn(deps.orm.em.fork(), token)).toBeNull();
  });
});

describe('password recovery', () => {
  test('a code resets the password and revokes every session', async () => {
    const { token } = await signUp('frank@example.test');
    const since = smtp.messages.length;
    await anon().auth.sendCode({ email: 'frank@example.test', purpose: 'reset' });
    const code = await smtp.code('frank@example.test', since);
    await anon().auth.resetPassword({
      email: 'frank@example.test',
      code,
      password: 'a new password',
      repeatPassword: 'a new password',
    });
    expect(await findSignedIn(deps.orm.em.fork(), token)).toBeNull();
    await expect(
      anon().auth.login({ email: 'frank@example.test', password: PASSWORD, rememberMe: false }),
    ).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
    await expect(
      anon().auth.login({ email: 'frank@example.test', password: 'a new password', rememberMe: false }),
    ).resolves.toMatchObject({ me: { email: 'frank@example.test' } });
  });

  test('a register code cannot reset a password', async () => {
    await signUp('gina@example.test');
    const since = smtp.messages.length;
    const caller = anon();
    await caller.auth.sendCode({ email: 'gina2@example.test', purpose: 'register' });
    const code = await smtp.code('gina2@example.test', since);
    await expect(
      caller.auth.resetPassword({
        email: 'gina@example.test',
        code,
        password: 'whatever1',
        repeatPassword: 'whatever1',
      }),
    ).rejects.toMatchObject({ message: 'errors.codeInvalid' });
  });
});

describe('QR phone login', () => {
  test('desktop creates a ticket, a signed-in phone scans and confirms, only the creator redeems once', async () => {
    const { token } = await signUp('phone@example.test');
    const phone = await signedInCaller(token);
    const desktop = callerFor(deps, null, { userAgent: 'Desktop Chromium', ip: '198.51.100.200' });
    const ticket = await desktop.auth.qrCreate();
    expect(ticket.svg).toContain('<svg');
    expect(ticket.url).toContain(`/qrlogin/${ticket.ticketId}`);
    await expect(desktop.auth.qrPoll({ ticketId: ticket.ticketId, secret: ticket.secret })).resolves.toEqual({
      status: 'pending',
    });

    const requester = await phone.auth.qrScan({ ticketId: ticket.ticketId });
    expect(requester.userAgent).toBe('Desktop Chromium');
    await expect(desktop.auth.qrPoll({ ticketId: ticket.ticketId, secret: ticket.secret })).resolves.toEqual({
      status: 'scanned',
    });

    // Another browser that saw the QR code cannot redeem it.
    const thief = anon();
    await expect(
      thief.auth.qrPoll({ ticketId: ticket.ticketId, secret: 'x'.repeat(32) }),
    ).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });

    await phone.auth.qrDecide({ ticketId: ticket.ticketId, approve: true });
    const redeemed = await desktop.auth.qrPoll({ ticketId: ticket.ticketId, secret: ticket.secret });
    expect(redeemed).toMatchObject({ status: 'confirmed', me: { email: 'phone@example.test' } });
    expect(jarOf(desktop).session?.token).toBeTruthy();
    await expect(desktop.auth.qrPoll({ ticketId: ticket.ticketId, secret: ticket.secret })).resolves.toEqual({
      status: 'expired',
    });
  });

  test('only a signed-in user can scan or confirm', async () => {
    const ticket = await anon().auth.qrCreate();
    await expect(anon().auth.qrScan({ ticketId: ticket.ticketId })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
    await expect(anon().auth.qrDecide({ ticketId: ticket.ticketId, approve: true })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });

  test('cancelling on the phone ends the ticket', async () => {
    const { token } = await signUp('cancel@example.test');
    const phone = await signedInCaller(token);
    const desktop = anon();
    const ticket = await desktop.auth.qrCreate();
    await phone.auth.qrDecide({ ticketId: ticket.ticketId, approve: false });
    await expect(desktop.auth.qrPoll({ ticketId: ticket.ticketId, secret: ticket.secret })).resolves.toEqual({
      status: 'cancelled',
    });
    await expect(phone.auth.qrDecide({ ticketId: ticket.ticketId, approve: true })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  test('an expired ticket reads as expired', async () => {
    const desktop = anon();
    const ticket = await desktop.auth.qrCreate();
    await deps.redis.del(`${deps.config.redisPrefix}:qr:${ticket.ticketId}`);
    await expect(desktop.auth.qrPoll({ ticketId: ticket.ticketId, secret: ticket.secret })).resolves.toEqual({
      status: 'expired',
    });
  });
});
