// The feedback router: a message is stored for its sender alone, mailed to the operator through
// the real mail worker and an SMTP sink when OPERATOR_EMAIL is set (and not otherwise), limited
// per account under parallel sends, and refused whole when its text cannot be stored.
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningWorkers, startWorkers } from '../../jobs/workers.ts';
import { Feedback } from '../../server/db/entities/index.ts';
import { LIMITS } from '../../server/domain/rate-limit.ts';
import { translator } from '../../server/i18n.ts';
import { toErrorPayload } from '../../server/trpc/init.ts';
import { FEEDBACK_MESSAGE_MAX, type SendFeedbackInput } from '../../src/schemas/feedback.ts';
import { callerFor } from '../helpers/context.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { type ReceivedMail, type SmtpSink, startSmtpSink } from '../helpers/smtp.ts';
import { signedInUser } from '../helpers/users.ts';

const OPERATOR = 'operator@example.test';

let deps: TestDeps;
let smtp: SmtpSink;
let workers: RunningWorkers;

beforeAll(async () => {
  smtp = await startSmtpSink();
  deps = await createTestDeps({ SMTP_URL: smtp.url, OPERATOR_EMAIL: OPERATOR });
  workers = await startWorkers(deps);
});
afterAll(async () => {
  await workers.close();
  await deps.close();
  await smtp.close();
});

type Reader = Awaited<ReturnType<typeof signedInUser>>;

const idea = (message = 'Please add a reading timer.'): SendFeedbackInput => ({
  kind: 'idea',
  message,
  contact: null,
  environment: null,
});

/** The rows the table holds for a user, oldest first. */
const rowsOf = (reader: Reader) =>
  deps.orm.em.fork().find(Feedback, { user: reader.user.id }, { orderBy: { id: 'asc' } });

/** The translated message and key a refused call answers with. */
async function refusal(call: Promise<unknown>) {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof TRPCError)) throw new Error(`expected a refusal, got ${String(error)}`);
  const payload = toErrorPayload(error);
  return { ...payload, text: translator('en')(payload.messageKey, payload.params) };
}

/** The mails the operator received about an account (mails of earlier tests may still arrive). */
const mailsAbout = (reader: Reader) =>
  smtp.messages.filter((m) => m.to.includes(OPERATOR) && m.subject.endsWith(` ${reader.user.accountId}`));

/** Waits for the first mail about an account. */
async function mailAbout(reader: Reader) {
  await expect.poll(() => mailsAbout(reader).length, { timeout: 15_000 }).toBeGreaterThan(0);
  return mailsAbout(reader)[0] as ReceivedMail;
}

/** The mail job queued for a feedback row, if any (completed jobs are kept for a day). */
const mailJobOf = (feedbackId: number) => deps.queues.mail.getJob(`mail-feedback-${feedbackId}`);

describe('sending feedback', () => {
  test('the message is stored with its kind, contact and environment, and listed for its sender', async () => {
    const reader = await signedInUser(deps);
    const sent = await reader.caller.feedback.send({
      kind: 'bug',
      message: '  The reader jumps to the top when I highlight.  ',
      contact: ' Reader@Example.test ',
      environment: {
        appVersion: '0.1.0',
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0',
        language: 'en-US',
        timeZone: 'Europe/Paris',
        extensionMarket: 'chrome',
        extensionVersion: '25.4.307',
      },
    });
    expect(sent).toMatchObject({
      kind: 'bug',
      message: 'The reader jumps to the top when I highlight.',
      contact: 'Reader@Example.test',
    });
    await expect(reader.caller.feedback.list()).resolves.toEqual([sent]);
    const [row] = await rowsOf(reader);
    expect(row?.context).toEqual({
      appVersion: '0.1.0',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0',
      language: 'en-US',
      timeZone: 'Europe/Paris',
      extensionMarket: 'chrome',
      extensionVersion: '25.4.307',
    });
  });

  test('without the environment and a contact, an empty object and no contact are stored', async () => {
    const reader = await signedInUser(deps);
    await reader.caller.feedback.send({ kind: 'other', message: 'Thanks!', contact: '', environment: null });
    const [row] = await rowsOf(reader);
    expect(row).toMatchObject({ kind: 'other', message: 'Thanks!', context: {} });
    expect(row?.contact ?? null).toBeNull();
  });

  test('the operator receives it by mail: kind, account id, the message, the environment, Reply-To the contact', async () => {
    const reader = await signedInUser(deps);
    const sent = await reader.caller.feedback.send({
      kind: 'idea',
      message: 'Could the daily note\nshow the weather?',
      contact: 'writer@example.test',
      environment: { appVersion: '0.1.0', timeZone: 'Asia/Tokyo' },
    });
    const mail = await mailAbout(reader);
    expect(mail.subject).toBe(`Margin feedback (Idea) from ${reader.user.accountId}`);
    expect(mail.raw).toMatch(/^Reply-To: writer@example\.test\r?$/im);
    const body = mail.raw.replace(/=\r?\n/g, '');
    expect(body).toContain(`Account ID: ${reader.user.accountId}`);
    expect(body).toContain('Reply to: writer@example.test');
    expect(body).toContain('Could the daily note\r\nshow the weather?');
    expect(body).toContain('Time zone: Asia/Tokyo');
    expect(body).toContain('App version: 0.1.0');
    const [row] = await rowsOf(reader);
    expect(row?.id).toBe(sent.id);
    expect(row?.mailedAt).toBeInstanceOf(Date);
  });

  test('without OPERATOR_EMAIL the message is only stored: no mail job, no mail', async () => {
    const reader = await signedInUser(deps);
    const noOperator = callerFor({ ...deps, config: { ...deps.config, operatorEmail: undefined } }, reader);
    const unmailed = await noOperator.feedback.send(idea('Stored, never mailed.'));
    expect(await mailJobOf(unmailed.id)).toBeUndefined();
    // A message sent after it is mailed; the first one never is.
    await reader.caller.feedback.send(idea('Mailed.'));
    await mailAbout(reader);
    const received = mailsAbout(reader).map((m) => m.raw);
    expect(received).toHaveLength(1);
    expect(received[0]).toContain('Mailed.');
    const rows = await rowsOf(reader);
    expect(rows.map((r) => [r.message, r.mailedAt instanceof Date])).toEqual([
      ['Stored, never mailed.', false],
      ['Mailed.', true],
    ]);
  });
});

describe('the limit per account', () => {
  const { max: perHour } = LIMITS.feedback.perUserHour;
  const { max: perDay } = LIMITS.feedback.perUserDay;

  test(`${perHour + 3} parallel sends: exactly ${perHour} are stored, the rest refused with a translated message`, async () => {
    const reader = await signedInUser(deps);
    const results = await Promise.allSettled(
      Array.from({ length: perHour + 3 }, (_, i) => reader.caller.feedback.send(idea(`Parallel ${i}`))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(perHour);
    for (const failed of results.filter((r) => r.status === 'rejected')) {
      expect(await refusal(Promise.reject(failed.reason))).toMatchObject({
        appCode: 'TOO_MANY_REQUESTS',
        messageKey: 'errors.tooManyRequests',
        text: 'Too many attempts. Please wait a moment and try again.',
      });
    }
    expect(await rowsOf(reader)).toHaveLength(perHour);
    // Another account has its own allowance.
    const other = await signedInUser(deps);
    await expect(other.caller.feedback.send(idea())).resolves.toMatchObject({ kind: 'idea' });
  });

  test(`a day holds ${perDay}, however the hours fall`, async () => {
    const reader = await signedInUser(deps);
    const hourKey = `${deps.config.redisPrefix}:rl:feedback:hour:${reader.user.id}`;
    for (let hour = 0; hour < perDay / perHour; hour++) {
      await Promise.all(
        Array.from({ length: perHour }, (_, i) => reader.caller.feedback.send(idea(`Hour ${hour}, ${i}`))),
      );
      // The hour's window ends (its counter expires); the day's goes on.
      await deps.redis.del(hourKey);
    }
    expect(await rowsOf(reader)).toHaveLength(perDay);
    expect(await refusal(reader.caller.feedback.send(idea('One too many')))).toMatchObject({
      appCode: 'TOO_MANY_REQUESTS',
    });
    expect(await rowsOf(reader)).toHaveLength(perDay);
  });
});

describe('what is refused', () => {
  const cases: [string, Partial<SendFeedbackInput>, string][] = [
    ['an empty message', { message: '   ' }, 'errors.cannotBeEmpty'],
    ['a message over the limit', { message: 'x'.repeat(FEEDBACK_MESSAGE_MAX + 1) }, 'errors.tooLong'],
    ['a NUL in the message', { message: 'a\u0000b' }, 'errors.invalidCharacters'],
    ['a lone surrogate in the message', { message: 'a\uD800b' }, 'errors.invalidCharacters'],
    ['a contact that is not an email', { contact: 'call me maybe' }, 'errors.emailInvalid'],
    ['a NUL in the contact', { contact: 'a\u0000@example.test' }, 'errors.invalidCharacters'],
    [
      'a lone surrogate in the environment',
      { environment: { userAgent: 'Mozilla\uDC00' } },
      'errors.invalidCharacters',
    ],
    ['an oversize environment field', { environment: { timeZone: 'Z'.repeat(65) } }, 'errors.invalidInput'],
  ];

  test.each(cases)('%s: refused with a translated message, nothing stored', async (_what, change, key) => {
    const reader = await signedInUser(deps);
    const answer = await refusal(reader.caller.feedback.send({ ...idea(), ...change }));
    expect(answer).toMatchObject({ appCode: 'BAD_REQUEST', messageKey: key });
    expect(answer.text).not.toBe(key);
    expect(await rowsOf(reader)).toHaveLength(0);
  });

  test('an unknown kind or an unknown environment field is refused', async () => {
    const reader = await signedInUser(deps);
    const unknownKind = { ...idea(), kind: 'praise' } as unknown as SendFeedbackInput;
    await expect(refusal(reader.caller.feedback.send(unknownKind))).resolves.toMatchObject({
      appCode: 'BAD_REQUEST',
    });
    const extraField = { ...idea(), environment: { cookies: 'a=b' } } as unknown as SendFeedbackInput;
    await expect(refusal(reader.caller.feedback.send(extraField))).resolves.toMatchObject({
      appCode: 'BAD_REQUEST',
    });
    expect(await rowsOf(reader)).toHaveLength(0);
  });

  test('the longest message, with characters outside the BMP, is kept whole', async () => {
    const reader = await signedInUser(deps);
    const message = `${'x'.repeat(FEEDBACK_MESSAGE_MAX - 2)}📚`;
    await reader.caller.feedback.send(idea(message));
    expect((await rowsOf(reader))[0]?.message).toBe(message);
  });

  test('refused sends do not use up the allowance', async () => {
    const reader = await signedInUser(deps);
    for (let i = 0; i < LIMITS.feedback.perUserHour.max + 2; i++) {
      await refusal(reader.caller.feedback.send(idea('a\u0000b')));
    }
    await expect(reader.caller.feedback.send(idea())).resolves.toMatchObject({ kind: 'idea' });
  });
});

describe('whose rows', () => {
  test("a user lists only their own messages; another user's never appear", async () => {
    const alice = await signedInUser(deps);
    const bob = await signedInUser(deps);
    const mine = await alice.caller.feedback.send(idea('From Alice'));
    await bob.caller.feedback.send(idea('From Bob'));
    await expect(alice.caller.feedback.list()).resolves.toEqual([mine]);
    const bobs = await bob.caller.feedback.list();
    expect(bobs.map((f) => f.message)).toEqual(['From Bob']);
    expect(bobs.some((f) => f.id === mine.id)).toBe(false);
  });

  test('signed out, nothing is sent or listed', async () => {
    const stranger = callerFor(deps);
    await expect(refusal(stranger.feedback.send(idea()))).resolves.toMatchObject({ appCode: 'UNAUTHORIZED' });
    await expect(refusal(stranger.feedback.list())).resolves.toMatchObject({ appCode: 'UNAUTHORIZED' });
  });
});
