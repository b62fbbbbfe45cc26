import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { MailJob } from '../../../src/jobs.ts';
import type { AppConfig } from '../../config.ts';
import { log } from '../../log.ts';

export interface Mailer {
  send(message: MailJob): Promise<void>;
  close(): void;
}

/**
 * SMTP through nodemailer when SMTP_URL is set; otherwise a local outbox under DATA_DIR, logged,
 * so sign-up works on a laptop with no mail server.
 */
export function createMailer(config: AppConfig): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({ from: config.mailFrom, ...message });
      },
      close: () => transport.close(),
    };
  }
  const outbox = path.join(config.dataDir, 'outbox');
  return {
    async send(message) {
      await fs.mkdir(outbox, { recursive: true });
      const file = path.join(outbox, `${Date.now()}-${message.to.replace(/[^\w.@-]/g, '_')}.json`);
      await fs.writeFile(file, JSON.stringify({ from: config.mailFrom, ...message }, null, 2));
      log.info('mail written to the local outbox (set SMTP_URL to send it)', {
        to: message.to,
        subject: message.subject,
        text: message.text,
        file,
      });
    },
    close() {},
  };
}
