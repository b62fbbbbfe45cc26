// Mail jobs keep no secret in Redis, which installs may share: a code's job names its row and
// carries the code sealed under a key only the row keeps, a sent mail leaves no job, a refused one
// keeps no address in its error, limit keys name emails by a digest, and deleting an account
// removes every job about it.
import { createHash } from 'node:crypto';
import type { Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningWorkers, startWorkers } from '../../jobs/workers.ts';
import { VerificationCode } from '../../server/db/entities/index.ts';
import { enqueue, findJob } from '../../server/queue.ts';
import { QUEUE_NAMES } from '../../src/jobs.ts';
import { callerFor, jarOf } from '../helpers/context.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp.ts';
import { signedInUser } from '../helpers/users.ts';
import { waitFor } from '../helpers/wait.ts';

const PASSWORD = 'a long enough password';
const refused = (address: string) => address.startsWith('bounce');

let deps: TestDeps;
let smtp: SmtpSink;
let workers: RunningWorkers;
let ip = 0;

beforeAll(async () => {
  smtp = await startSmtpSink({ refuses: refused });
  deps = await createTestDeps({ SMTP_URL: smtp.url });
  workers = await startWorkers(deps);
});
afterAll(async () => {
  await workers?.close();
  await deps?.close();
  await smtp?.close();
});

const anon = () => callerFor(deps, null, { ip: `198.51.100.${++ip}` });

/** Every key under this file's Redis prefix with everything it holds, as text. */
async function redisDump(): Promise<Map<string, string>> {
  const { redis } = deps;
  const dump = new Map<string, string>();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${deps.config.redisPrefix}:*`, 'COUNT', 500);
    cursor = next;
    for (const key of keys) {
      const type = await redis.type(key);
      const value =
        type === 'string'
          ? await redis.get(key)
          : type === 'hash'
            ? await redis.hgetall(key)
            : type === 'list'
              ? await redis.lrange(key, 0, -1)
              : type === 'set'
                ? await redis.smembers(key)
                : type === 'zset'
                  ? await redis.zrange(key, '0', '-1', 'WITHSCORES')
                  : type === 'stream'
                    ? await redis.xrange(key, '-', '+')
                    : type;
      dump.set(key, `${key} ${JSON.stringify(value)}`);
    }
  } while (cursor !== '0');
  return dump;
}

/** The keys whose names or values hold one of the words (a code counts only as a whole word). */
async function keysHolding(...words: string[]): Promise<string[]> {
  const patterns = words.map((word) =>
    /^\d+$/.test(word) ? new RegExp(`\\b${word}\\b`) : new RegExp(word.replace(/[.+]/g, '\\$&'), 'i'),
  );
  return [...(await redisDump())]
    .filter(([, text]) => patterns.some((p) => p.test(text)))
    .map(([key]) => key);
}

async function jobsLeft(): Promise<Job[]> {
  const states = [
    'waiting',
    'delayed',
    'prioritized',
    'active',
    'waiting-children',
    'completed',
    'failed',
  ] as const;
  const jobs = await Promise.all(QUEUE_NAMES.map((name) => deps.queues[name].getJobs([...states])));
  return jobs.flat();
}

/** Waits for a mail job to end and leave Redis (as a sent one, or one with nothing to send, does). */
const mailJobGone = (id: string) =>
  waitFor(async () => ((await deps.queues.mail.getJob(id)) ? undefined : true), 20_000, `mail ${id} to go`);

const failedMail = (id: string) =>
  waitFor(
    async () => {
      if ((await (await deps.queues.mail.getJob(id))?.getState()) !== 'failed') return undefined;
      // Read again: a job read while it ran still holds its attempts and reason of before.
      return deps.queues.mail.getJob(id);
    },
    20_000,
    `mail ${id} to fail`,
  );

const newestCode = (email: string) =>
  deps.orm.em.fork().findOneOrFail(VerificationCode, { email }, { orderBy: { id: 'desc' } });

/** The code a row's salted hash is of, found the slow way (the server cannot do this: it mails the code). */
function codeOfHash(row: VerificationCode): string {
  for (let n = 0; n < 1_000_000; n++) {
    const code = String(n).padStart(6, '0');
    if (createHash('sha256').update(`${row.salt}:${code}`).digest('hex') === row.codeHash) return code;
  }
  throw new Error('no code matches the hash');
}

describe('a verification code’s mail', () => {
  test('leaves neither the code nor the address in Redis, and the mailed code signs up', async () => {
    const email = 'in-plain-sight@example.test';
    const caller = anon();
    await caller.auth.sendCode({ email, purpose: 'register' });
    const code = await smtp.code(email);
    await mailJobGone(`mail-code-${(await newestCode(email)).id}`);
    expect(await keysHolding(email, code)).toEqual([]);
    // The key that opened the job's sealed copy is forgotten once the mail is out.
    expect((await newestCode(email)).mailKey).toBeNull();

    await caller.auth.register({ email, code, password: PASSWORD, repeatPassword: PASSWORD });
    expect(jarOf(caller).session).not.toBeNull();
    // Signing in, wrongly and rightly, names the email in no limit key either.
    await expect(
      anon().auth.login({ email, password: 'not the password', rememberMe: false }),
    ).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await anon().auth.login({ email, password: PASSWORD, rememberMe: false });
    expect(await keysHolding(email, code)).toEqual([]);
  });

  test('refused by the mail server, it fails at once and keeps neither the code nor the address', async () => {
    const email = 'bounce-code@example.test';
    await anon().auth.sendCode({ email, purpose: 'register' });
    const row = await newestCode(email);
    const job = await failedMail(`mail-code-${row.id}`);
    // A refusal for good is not tried again, and its reason names no address.
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toContain('<address>');
    expect(await keysHolding(email, codeOfHash(row))).toEqual([]);
  });

  test('a code used before its mail goes out is not mailed', async () => {
    const email = 'used-first@example.test';
    let row: VerificationCode;
    await workers.close();
    try {
      await anon().auth.sendCode({ email, purpose: 'register' });
      row = await newestCode(email);
      const caller = anon();
      await caller.auth.register({
        email,
        code: codeOfHash(row),
        password: PASSWORD,
        repeatPassword: PASSWORD,
      });
    } finally {
      workers = await startWorkers(deps);
    }
    await mailJobGone(`mail-code-${row.id}`);
    expect(smtp.messages.some((m) => m.to.includes(email))).toBe(false);
  });
});

describe('deleting an account', () => {
  test('removes every job about it in every state, and no other', async () => {
    const leaving = await signedInUser(deps, 'leaving@example.test');
    const userId = leaving.user.id;
    const other = await signedInUser(deps);
    const anHour = { delay: 3_600_000 };
    await enqueue(deps.queues, 'push', { userId, app: 'flomo' }, anHour);
    await enqueue(deps.queues, 'purgeStoredFiles', { userId }, anHour);
    await enqueue(deps.queues, 'push', { userId: other.user.id, app: 'flomo' }, anHour);
    // A reminder mail about the account that its server refused (failed, kept a week).
    await enqueue(deps.queues, 'mail', {
      key: `pro-reminder-${userId}-1`,
      to: 'bounce-leaving@example.test',
      subject: 'Your PRO ends soon',
      text: 'Three days left.',
      userId,
    });
    // A code for binding another email, refused too.
    await leaving.caller.account.sendBindCode({ email: 'bounce-new-address@example.test' });
    const bindCode = await newestCode('bounce-new-address@example.test');
    await failedMail(`mail-pro-reminder-${userId}-1`);
    await failedMail(`mail-code-${bindCode.id}`);

    const since = smtp.messages.length;
    await leaving.caller.account.sendDeleteCode();
    const code = await smtp.code('leaving@example.test', since);
    await leaving.caller.account.delete({ code });
    await waitFor(
      async () => ((await findJob(deps.queues, 'deleteUserFiles', { userId })) ? undefined : true),
      20_000,
      'the account’s files to be deleted',
    );

    const left = await jobsLeft();
    const about = left.filter((job) => job.data.userId === userId || job.data.codeId === bindCode.id);
    expect(about.map((job) => `${job.queueName} ${job.name} ${job.id}`)).toEqual([]);
    expect(left.some((job) => job.name === 'push' && job.data.userId === other.user.id)).toBe(true);
    expect(await keysHolding('leaving@example.test', 'bounce-leaving', 'bounce-new-address')).toEqual([]);
  });
});
