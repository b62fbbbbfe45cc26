import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningWorkers, startWorkers } from '../../jobs/workers.ts';
import { clock, setClock } from '../../server/clock.ts';
import { User } from '../../server/db/entities/index.ts';
import { verifyPassword } from '../../server/domain/auth/password.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { type RunningServer, startServer } from '../helpers/http.ts';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp.ts';
import { userWithPassword } from '../helpers/users.ts';

let deps: TestDeps;
let smtp: SmtpSink;
let workers: RunningWorkers;
let server: RunningServer;

beforeAll(async () => {
  smtp = await startSmtpSink();
  // Requests come from loopback; trusting it lets X-Forwarded-For give each one its own address.
  deps = await createTestDeps({ SMTP_URL: smtp.url, TRUST_PROXY: 'loopback' });
  workers = await startWorkers(deps);
  server = await startServer(deps);
});
afterAll(async () => {
  await server?.close();
  await workers?.close();
  await deps?.close();
  await smtp?.close();
});

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a brand new password';

let addressCounter = 0;
/** A client address no other request in this file uses. */
function newAddress(): string {
  addressCounter++;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
}

interface Answer {
  status: number;
  messageKey: string | undefined;
  seconds: number | undefined;
  cookie: string | undefined;
}

/** A tRPC mutation over real HTTP from `address`. */
async function call(path: string, input: unknown, address = newAddress()): Promise<Answer> {
  const res = await request(server.url)
    .post(`/trpc/${path}`)
    .set('Content-Type', 'application/json')
    .set('X-Forwarded-For', address)
    .send({ json: input });
  const data = res.body?.error?.json?.data;
  return {
    status: res.status,
    messageKey: data?.messageKey,
    seconds: data?.params?.seconds,
    cookie: res.headers['set-cookie']?.[0],
  };
}

/** What a refused guess said: the message key, or 429 for a rate limit. */
const verdict = (a: Answer) => (a.status === 429 ? '429' : a.status === 200 ? 'ok' : a.messageKey);

function tally(answers: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of answers) {
    const v = String(verdict(a));
    counts[v] = (counts[v] ?? 0) + 1;
  }
  return counts;
}

async function sendCode(email: string, purpose: 'register' | 'reset'): Promise<string> {
  const since = smtp.messages.length;
  expect((await call('auth.sendCode', { email, purpose })).status).toBe(200);
  return smtp.code(email, since);
}

const otherThan = (code: string) => (offset: number) =>
  String((Number(code) + 1 + offset) % 1_000_000).padStart(6, '0');

async function createUser(email: string, password = PASSWORD): Promise<void> {
  await userWithPassword(deps, email, password);
}

async function passwordStillIs(email: string, password: string): Promise<boolean> {
  const user = await deps.orm.em.fork().findOneOrFail(User, { email });
  return verifyPassword(user.passwordHash, password);
}

const register = (email: string, code: string, address?: string) =>
  call('auth.register', { email, code, password: PASSWORD, repeatPassword: PASSWORD }, address);
const reset = (email: string, code: string, address?: string) =>
  call('auth.resetPassword', { email, code, password: NEW_PASSWORD, repeatPassword: NEW_PASSWORD }, address);

describe('emailed codes: attempts are claimed atomically', () => {
  test('50 parallel wrong register codes from 50 addresses: at most 5 are "wrong code", then the right code is refused', async () => {
    const email = 'race-register@example.test';
    const code = await sendCode(email, 'register');
    const wrong = otherThan(code);
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => register(email, wrong(i))));
    const counts = tally(answers);
    expect(counts['errors.codeInvalid'] ?? 0).toBeLessThanOrEqual(5);
    for (const key of Object.keys(counts)) {
      expect(['errors.codeInvalid', 'errors.codeTooManyTries', '429']).toContain(key);
    }
    const right = await register(email, code);
    expect(right.status === 429 || right.messageKey === 'errors.codeTooManyTries').toBe(true);
    expect(right.cookie).toBeUndefined();
    expect(await deps.orm.em.fork().count(User, { email })).toBe(0);
  });

  test('50 parallel wrong reset codes from 50 addresses: at most 5 are "wrong code", then the right code is refused', async () => {
    const email = 'race-reset@example.test';
    await createUser(email);
    const code = await sendCode(email, 'reset');
    const wrong = otherThan(code);
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => reset(email, wrong(i))));
    const counts = tally(answers);
    expect(counts['errors.codeInvalid'] ?? 0).toBeLessThanOrEqual(5);
    for (const key of Object.keys(counts)) {
      expect(['errors.codeInvalid', 'errors.codeTooManyTries', '429']).toContain(key);
    }
    const right = await reset(email, code);
    expect(right.status === 429 || right.messageKey === 'errors.codeTooManyTries').toBe(true);
    expect(await passwordStillIs(email, PASSWORD)).toBe(true);
  });

  test('under the rate limits, the code itself takes five tries however parallel they are', async () => {
    // 19 guesses and the right code make 20 checks: the per-email limit is not what stops them.
    const email = 'race-tries@example.test';
    await createUser(email);
    const code = await sendCode(email, 'reset');
    const wrong = otherThan(code);
    const answers = await Promise.all(Array.from({ length: 19 }, (_, i) => reset(email, wrong(i))));
    expect(tally(answers)).toEqual({ 'errors.codeInvalid': 4, 'errors.codeTooManyTries': 15 });
    const right = await reset(email, code);
    expect(right).toMatchObject({ status: 400, messageKey: 'errors.codeTooManyTries' });
    expect(await passwordStillIs(email, PASSWORD)).toBe(true);
  });

  test('a right code after a couple of typos still works, once', async () => {
    const email = 'typo@example.test';
    const code = await sendCode(email, 'register');
    const wrong = otherThan(code);
    const address = newAddress();
    expect(await register(email, wrong(0), address)).toMatchObject({ messageKey: 'errors.codeInvalid' });
    expect(await register(email, wrong(1), address)).toMatchObject({ messageKey: 'errors.codeInvalid' });
    const ok = await register(email, code, address);
    expect(ok.status).toBe(200);
    expect(ok.cookie).toMatch(/^logininfo=/);
    expect(await register(email, code, address)).toMatchObject({
      status: 400,
      messageKey: 'errors.codeInvalid',
    });
  });
});

describe('emailed codes: checks are rate limited', () => {
  test('one address checking codes for many emails is stopped with 429 after 30 checks', async () => {
    const address = newAddress();
    for (let i = 0; i < 30; i++) {
      expect(await register(`ip-flood-${i}@example.test`, '123456', address)).toMatchObject({
        status: 400,
        messageKey: 'errors.codeInvalid',
      });
    }
    const over = await register('ip-flood-last@example.test', '123456', address);
    expect(over).toMatchObject({ status: 429, messageKey: 'errors.tooManyRequests' });
    expect(over.seconds).toBeGreaterThan(0);
    // Another address is not affected.
    expect(await register('ip-flood-last@example.test', '123456')).toMatchObject({ status: 400 });
  });

  test('one email checked from many addresses is stopped with 429 after 20 checks, even with the right code', async () => {
    const email = 'email-flood@example.test';
    await createUser(email);
    // Each guess is for a code that was never sent, so only the limit can answer differently.
    for (let i = 0; i < 20; i++) {
      expect(await reset(email, '123456')).toMatchObject({ status: 400, messageKey: 'errors.codeInvalid' });
    }
    const code = await sendCode(email, 'reset');
    const over = await reset(email, code);
    expect(over).toMatchObject({ status: 429, messageKey: 'errors.tooManyRequests' });
    expect(over.seconds).toBeGreaterThan(0);
    expect(await passwordStillIs(email, PASSWORD)).toBe(true);
    // The limit is per purpose: the same email's other flows are untouched.
    expect(await register(email, '123456')).toMatchObject({ status: 400, messageKey: 'errors.codeInvalid' });
  });
});

describe('QR sign-in tickets', () => {
  test('one address may create 10 a minute, then 429; another address still can; tickets expire in Redis', async () => {
    const address = newAddress();
    const created: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await request(server.url)
        .post('/trpc/auth.qrCreate')
        .set('Content-Type', 'application/json')
        .set('X-Forwarded-For', address)
        .send({});
      expect(res.status).toBe(200);
      created.push(res.body.result.data.json.ticketId);
    }
    const over = await call('auth.qrCreate', undefined, address);
    expect(over).toMatchObject({ status: 429, messageKey: 'errors.tooManyRequests' });
    expect(over.seconds).toBeGreaterThan(0);
    expect(over.seconds).toBeLessThanOrEqual(60);
    expect((await call('auth.qrCreate', undefined)).status).toBe(200);

    const ttl = await deps.redis.ttl(`${deps.config.redisPrefix}:qr:${created[0]}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(120);
    // Refused requests stored nothing: ten tickets from that address plus one from the other.
    expect(await deps.redis.keys(`${deps.config.redisPrefix}:qr:*`)).toHaveLength(11);
  });
});

describe('sign-in: a back-off per account and address, not a lock per email', () => {
  const login = (email: string, password: string, address: string) =>
    call('auth.login', { email, password, rememberMe: false }, address);

  test('parallel wrong passwords from one address: at most 5 are evaluated', async () => {
    const email = 'parallel-login@example.test';
    await createUser(email);
    const address = newAddress();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => login(email, `wrong password ${i}`, address)),
    );
    const counts = tally(answers);
    expect(counts['toast.loginFailed'] ?? 0).toBeLessThanOrEqual(5);
    expect((counts['toast.loginFailed'] ?? 0) + (counts['429'] ?? 0)).toBe(20);
  });

  test('20 wrong passwords from A back A off; the real user at B signs in; the back-off grows and then expires', async () => {
    const email = 'victim@example.test';
    await createUser(email);
    const attacker = newAddress();
    const owner = newAddress();

    const answers: Answer[] = [];
    for (let i = 0; i < 20; i++) answers.push(await login(email, `guess number ${i}`, attacker));
    expect(answers.slice(0, 5).map(verdict)).toEqual(Array(5).fill('toast.loginFailed'));
    for (const a of answers.slice(5)) {
      expect(a).toMatchObject({ status: 429, messageKey: 'errors.tooManyRequests' });
      expect(a.seconds).toBeGreaterThan(0);
      expect(a.seconds).toBeLessThanOrEqual(30);
    }
    // Backed off means backed off: even the right password waits.
    expect((await login(email, PASSWORD, attacker)).status).toBe(429);

    // The stranger did not lock the owner out.
    const signIn = await login(email, PASSWORD, owner);
    expect(signIn.status).toBe(200);
    expect(signIn.cookie).toMatch(/^logininfo=/);

    // Thirty seconds later A may try once more; a failure doubles the wait.
    setClock(new Date(clock.now().getTime() + 31_000));
    expect(await login(email, 'one more guess', attacker)).toMatchObject({
      status: 401,
      messageKey: 'toast.loginFailed',
    });
    const longer = await login(email, PASSWORD, attacker);
    expect(longer.status).toBe(429);
    expect(longer.seconds).toBeGreaterThan(30);
    expect(longer.seconds).toBeLessThanOrEqual(60);

    // Once that has passed, the right password signs A in and clears its failures.
    setClock(new Date(clock.now().getTime() + 61_000));
    expect((await login(email, PASSWORD, attacker)).status).toBe(200);
    for (let i = 0; i < 5; i++) {
      expect(await login(email, `fresh guess ${i}`, attacker)).toMatchObject({ status: 401 });
    }
  });

  test('the per-address limit across emails stays: 50 attempts per 15 minutes', async () => {
    const address = newAddress();
    for (let i = 0; i < 50; i++) {
      expect(await login(`nobody-${i}@example.test`, 'whatever pw', address)).toMatchObject({ status: 401 });
    }
    expect(await login('nobody-last@example.test', 'whatever pw', address)).toMatchObject({ status: 429 });
  });
});
