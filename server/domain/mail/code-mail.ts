import type { MailJob } from '../../../src/jobs.ts';
import type { CodePurpose } from '../../../src/schemas/auth.ts';
import { CODE_TTL_MINUTES } from '../../../src/schemas/auth.ts';
import { translator } from '../../i18n.ts';

const PURPOSE_KEY: Record<CodePurpose, string> = {
  register: 'mail.purposeRegister',
  reset: 'mail.purposeReset',
  bind: 'mail.purposeBind',
  delete: 'mail.purposeDelete',
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The verification mail, in the asker's language. */
export function codeMail(to: string, code: string, purpose: CodePurpose, language: string | null): MailJob {
  const t = translator(language);
  const lines = [
    t(PURPOSE_KEY[purpose]),
    t('mail.codeIntro'),
    code,
    t('mail.codeExpiry', { minutes: CODE_TTL_MINUTES }),
  ];
  return {
    to,
    subject: t('mail.codeSubject', { code }),
    text: lines.join('\n\n'),
    html:
      `<div style="font-family:system-ui,sans-serif;font-size:15px;line-height:1.5">` +
      `<p>${escapeHtml(lines[0] ?? '')}</p><p>${escapeHtml(lines[1] ?? '')}</p>` +
      `<p style="font-size:28px;font-weight:700;letter-spacing:6px">${code}</p>` +
      `<p style="color:#666">${escapeHtml(lines[3] ?? '')}</p></div>`,
  };
}
