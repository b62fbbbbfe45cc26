import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { MailJob } from '../../../src/jobs.ts';
import type { AppConfig } from '../../config.ts';
import { log } from '../../log.ts';

export interface Mailer {
  /** Throws MailNotSentError. */
  send(message: MailJob): Promise<void>;
  close(): void;
}

/**
 * Why a mail was not sent, in words that name no address: the job keeps its error in Redis
 * (failedReason, stack), which may be shared with other installs. `permanent`: the server refused
 * for good (a 5xx answer, such as an unknown mailbox), so trying again cannot help.
 */
export class MailNotSentError extends Error {
  readonly permanent: boolean;

  constructor(cause: unknown) {
    const { message, responseCode } = (cause ?? {}) as { message?: unknown; responseCode?: unknown };
    super(String(message ?? cause).replace(/[^\s<>"'@]+@[^\s<>"'@]+/g, '<address>'));
    this.name = 'MailNotSentError';
    this.permanent = typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600;
  }
}

/**
 * SMTP through nodemailer when SMTP_URL is set; otherwise a local outbox under DATA_DIR, so
 * sign-up works on a laptop with no mail server. Outbox mail holds verification codes: each is
 * a file only its owner may read (0600, in a 0700 directory), and the log names the file but
 * never the subject or body, which carry the code.
 */
export function createMailer(config: AppConfig): Mailer {
  const transport = config.smtpUrl ? smtpTransport(config.smtpUrl, config.mailFrom) : outboxTransport(config);
  return {
    async send(message) {
      try {
        await transport.send(message);
      } catch (error) {
        throw new MailNotSentError(error);
      }
    },
    close: transport.close,
  };
}

function smtpTransport(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
    close: () => transport.close(),
  };
}

function outboxTransport(config: AppConfig): Mailer {
  const outbox = path.join(config.dataDir, 'outbox');
  return {
    async send(message) {
      await prepareOutbox(outbox);
      const name = `${Date.now()}-${randomBytes(3).toString('hex')}-${message.to.replace(/[^\w.@-]/g, '_')}.json`;
      const file = path.join(outbox, name);
      // 'wx': always a new file, so the mode applies (it only does on creation).
      await fs.writeFile(file, JSON.stringify({ from: config.mailFrom, ...message }, null, 2), {
        mode: 0o600,
        flag: 'wx',
      });
      log.info('mail written to the local outbox (set SMTP_URL to send it)', { to: message.to, file });
    },
    close() {},
  };
}

/** Creates the outbox 0700, and closes one an earlier version left readable to others. */
async function prepareOutbox(outbox: string): Promise<void> {
  await fs.mkdir(outbox, { recursive: true, mode: 0o700 });
  await fs.chmod(outbox, 0o700);
}
