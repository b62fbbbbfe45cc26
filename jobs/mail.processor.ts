import type { Mailer } from '../server/domain/mail/mailer.ts';
import { QUEUES } from '../src/jobs.ts';
import { jobProcessor } from './job-processor.ts';

export function mailProcessor(mailer: Mailer) {
  return jobProcessor(QUEUES.mail, {
    // The key only names the job; the mail is the rest.
    mail: async ({ key: _key, ...message }) => {
      await mailer.send(message);
    },
  });
}
