import type { Job } from 'bullmq';
import type { Mailer } from '../server/domain/mail/mailer.ts';
import { zMailJob } from '../src/jobs.ts';

export function mailProcessor(mailer: Mailer) {
  return async (job: Job): Promise<void> => {
    await mailer.send(zMailJob.parse(job.data));
  };
}
