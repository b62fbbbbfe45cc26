import type { MailJob } from '../../../src/jobs.ts';
import {
  environmentFields,
  type FeedbackEnvironment,
  type FeedbackKind,
} from '../../../src/schemas/feedback.ts';
import { translator } from '../../i18n.ts';

/** One feedback message as the operator reads it. */
export interface FeedbackMailInput {
  to: string;
  /** The operator's language (the region's default): the mail is for them, not the sender. */
  language: string;
  kind: FeedbackKind;
  message: string;
  accountId: string;
  contact: string | null;
  environment: FeedbackEnvironment;
  sentAt: Date;
}

/**
 * The plain-text mail to the operator: what kind, from which account, where to answer (also the
 * Reply-To, so answering the mail reaches the sender), the message, and the environment if sent.
 */
export function feedbackMail(input: FeedbackMailInput): MailJob {
  const t = translator(input.language);
  const kind = t(`feedback.kind.${input.kind}`);
  const header = [
    `${t('feedback.mailKind')}: ${kind}`,
    `${t('feedback.mailAccount')}: ${input.accountId}`,
    `${t('feedback.mailContact')}: ${input.contact ?? t('feedback.mailNoContact')}`,
    `${t('feedback.mailSentAt')}: ${input.sentAt.toISOString()}`,
  ];
  const environment = environmentFields(input.environment).map(
    ({ labelKey, value }) => `${t(labelKey)}: ${value}`,
  );
  const sections = [
    header.join('\n'),
    input.message,
    environment.length > 0
      ? [`${t('feedback.mailEnvironment')}:`, ...environment].join('\n')
      : t('feedback.mailNoEnvironment'),
  ];
  return {
    to: input.to,
    ...(input.contact && { replyTo: input.contact }),
    subject: t('feedback.mailSubject', { kind, accountId: input.accountId }),
    text: sections.join('\n\n'),
  };
}
