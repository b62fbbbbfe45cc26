import type { EntityManager } from '@mikro-orm/postgresql';
import { UnrecoverableError } from 'bullmq';
import { codeMailToSend, forgetCodeMailKey } from '../server/domain/auth/codes.service.ts';
import { type Mailer, MailNotSentError } from '../server/domain/mail/mailer.ts';
import type { MailJob } from '../src/jobs.ts';
import { QUEUES } from '../src/jobs.ts';
import { jobProcessor } from './job-processor.ts';

export function mailProcessor(mailer: Mailer, em: () => EntityManager) {
  const send = async (message: MailJob) => {
    try {
      await mailer.send(message);
    } catch (error) {
      if (error instanceof MailNotSentError && error.permanent) throw new UnrecoverableError(error.message);
      throw error;
    }
  };
  return jobProcessor(QUEUES.mail, {
    mail: async (job) => {
      if (job.kind === 'code') {
        const db = em();
        const message = await codeMailToSend(db, job);
        if (!message) return { sent: false };
        await send(message);
        await forgetCodeMailKey(db, job.codeId);
        return { sent: true };
      }
      // The key and the account only name the job; the mail is the rest.
      const { kind: _kind, key: _key, userId: _userId, ...message } = job;
      await send(message);
      return { sent: true };
    },
  });
}
