import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
  subject: string;
}

export interface SmtpSink {
  url: string;
  messages: ReceivedMail[];
  /** Waits for the next message to `to` that arrived after `since` messages, and returns it. */
  next(to: string, since?: number): Promise<ReceivedMail>;
  /** The 6-digit code of the newest mail to `to` (waiting for it if needed). */
  code(to: string, since?: number): Promise<string>;
  close(): Promise<void>;
}

/** The Subject header, with RFC 2047 encoded words (=?utf-8?B?…?= / ?Q?) decoded. */
function decodeSubject(raw: string): string {
  const header = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const line = header.replace(/\r?\n[ \t]+/g, ' ').match(/^Subject: (.*)$/im)?.[1] ?? '';
  return line
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([BQ])\?([^?]*)\?=/gi, (_, encoding: string, text: string) => {
      if (encoding.toUpperCase() === 'B') return Buffer.from(text, 'base64').toString('utf8');
      const bytes = text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => `%${hex}`);
      return decodeURIComponent(bytes);
    });
}

export interface SmtpSinkOptions {
  /** Recipients it refuses for good (550, naming the address, as real servers do). */
  refuses?: (address: string) => boolean;
}

/** A real SMTP server on loopback that keeps what it receives. */
export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(address, _session, callback) {
      if (!options.refuses?.(address.address)) return callback();
      const refusal = Object.assign(new Error(`5.1.1 <${address.address}>: Recipient address rejected`), {
        responseCode: 550,
      });
      callback(refusal);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        messages.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          subject: decodeSubject(raw),
        });
        for (const w of waiters.splice(0)) w();
        callback();
      });
    },
  });
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  const next = async (to: string, since = 0): Promise<ReceivedMail> => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const found = messages
        .slice(since)
        .filter((m) => m.to.includes(to))
        .at(-1);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail to ${to}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  };
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    next,
    async code(to, since) {
      const mail = await next(to, since);
      const code = mail.subject.match(/\b(\d{6})\b/)?.[1];
      if (!code) throw new Error(`no code in "${mail.subject}"`);
      return code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
