// Without SMTP_URL, mail goes to DATA_DIR/outbox: a verification code is in a file only Margin's
// user can read, and never in the log, which other people and tools often get to see.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { type RunningWorkers, startWorkers } from '../../jobs/workers.ts';
import { callerFor } from '../helpers/context.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { waitFor } from '../helpers/wait.ts';

let dataDir: string;
let deps: TestDeps;
let workers: RunningWorkers;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'margin-outbox-'));
  // An outbox an earlier version made, open to everyone: sending closes it.
  fs.mkdirSync(path.join(dataDir, 'outbox'));
  fs.chmodSync(path.join(dataDir, 'outbox'), 0o755);
  deps = await createTestDeps({ DATA_DIR: dataDir, LOG_LEVEL: 'debug' });
  workers = await startWorkers(deps);
});
afterAll(async () => {
  await workers?.close();
  await deps?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** What the logger writes (JSON lines to stdout and stderr) from now until `stop()`. */
function captureLog(): { text(): string; stop(): void } {
  const chunks: string[] = [];
  const keep = (chunk: unknown) => {
    chunks.push(String(chunk));
    return true;
  };
  const spies = [
    vi.spyOn(process.stdout, 'write').mockImplementation(keep),
    vi.spyOn(process.stderr, 'write').mockImplementation(keep),
  ];
  return {
    text: () => chunks.join(''),
    stop: () => {
      for (const spy of spies) spy.mockRestore();
    },
  };
}

const mode = (file: string) => fs.statSync(file).mode & 0o777;

describe('the local outbox (no SMTP_URL)', () => {
  test('the code is in a 0600 file in a 0700 directory; the log names the file, never the code', async () => {
    expect(deps.config.smtpUrl).toBeUndefined();
    const email = 'outbox-reader@example.test';
    const outbox = path.join(dataDir, 'outbox');
    const log = captureLog();
    let file: string;
    try {
      await callerFor(deps).auth.sendCode({ email, purpose: 'register' });
      file = await waitFor(
        async () => fs.readdirSync(outbox).find((name) => name.includes(email)),
        20_000,
        'the outbox file',
      ).then((name) => path.join(outbox, name));
      // The log line follows the write.
      await waitFor(async () => (log.text().includes(file) ? true : undefined), 5_000, 'the log line');
    } finally {
      log.stop();
    }

    expect(mode(file)).toBe(0o600);
    expect(mode(outbox)).toBe(0o700);
    const mail = JSON.parse(fs.readFileSync(file, 'utf8')) as { to: string; subject: string; text: string };
    expect(mail.to).toBe(email);
    const code = mail.text.match(/\b\d{6}\b/)?.[0];
    expect(code).toBeDefined();

    const line = log
      .text()
      .split('\n')
      .find((l) => l.includes(file));
    expect(JSON.parse(line!)).toMatchObject({ msg: expect.stringMatching(/outbox/), file });
    expect(log.text()).not.toContain(code!);
    expect(log.text()).not.toContain(mail.subject);

    // The code in the file is the real one: it completes the sign-up.
    const password = 'outbox password 1';
    await expect(
      callerFor(deps).auth.register({ email, code: code!, password, repeatPassword: password }),
    ).resolves.toBeDefined();
  });
});
