import { z } from 'zod';
import { zText } from '../rules/text.ts';

// Feedback from the tools area (/personSetting/feedback): what the form sends, and the user's own
// earlier messages as the page lists them.

export const FEEDBACK_KINDS = ['bug', 'idea', 'other'] as const;
export type FeedbackKind = (typeof FEEDBACK_KINDS)[number];

export const FEEDBACK_MESSAGE_MAX = 5000;
export const FEEDBACK_CONTACT_MAX = 254;
/** How many of their own messages the page lists under the form. */
export const FEEDBACK_LIST_MAX = 10;

/**
 * The environment the form attaches when its box is ticked: what the debug page shows. Every
 * field is optional, since a browser may not say (no extension, no time zone).
 */
const zFeedbackEnvironment = z
  .object({
    appVersion: zText().max(32),
    userAgent: zText().max(512),
    language: zText().max(35),
    timeZone: zText().max(64),
    /** The extension's market, version and market version, read from the html element (mkt, v, mktv). */
    extensionMarket: zText().max(16),
    extensionVersion: zText().max(32),
    extensionMarketVersion: zText().max(32),
  })
  .partial()
  .strict();
export type FeedbackEnvironment = z.infer<typeof zFeedbackEnvironment>;

/** Each environment field's label (an i18n key), in the order the page and the mail list them. */
const FEEDBACK_ENVIRONMENT_LABELS: Readonly<Record<keyof FeedbackEnvironment, string>> = {
  appVersion: 'feedback.envAppVersion',
  userAgent: 'feedback.envBrowser',
  language: 'feedback.envLanguage',
  timeZone: 'feedback.envTimeZone',
  extensionMarket: 'feedback.envExtensionMarket',
  extensionVersion: 'feedback.envExtensionVersion',
  extensionMarketVersion: 'feedback.envExtensionMarketVersion',
};

/** The environment's given fields, each with its label key, in the labels' order. */
export function environmentFields(
  environment: FeedbackEnvironment,
): { name: keyof FeedbackEnvironment; labelKey: string; value: string }[] {
  return (Object.keys(FEEDBACK_ENVIRONMENT_LABELS) as (keyof FeedbackEnvironment)[]).flatMap((name) => {
    const value = environment[name];
    return value ? [{ name, labelKey: FEEDBACK_ENVIRONMENT_LABELS[name], value }] : [];
  });
}

/** An empty contact field means none; anything else must be an email to write back to. */
const zContact = zText()
  .trim()
  .max(FEEDBACK_CONTACT_MAX, 'errors.emailInvalid')
  .pipe(z.union([z.literal(''), z.email('errors.emailInvalid')]))
  .transform((contact) => contact || null);

export const zSendFeedbackInput = z.object({
  kind: z.enum(FEEDBACK_KINDS),
  message: zText().trim().min(1, 'errors.cannotBeEmpty').max(FEEDBACK_MESSAGE_MAX, 'errors.tooLong'),
  contact: zContact.nullish().transform((contact) => contact ?? null),
  /** Null: the user chose not to attach it. */
  environment: zFeedbackEnvironment.nullable(),
});
export type SendFeedbackInput = z.input<typeof zSendFeedbackInput>;

export const zFeedbackView = z.object({
  id: z.number().int(),
  kind: z.enum(FEEDBACK_KINDS),
  message: z.string(),
  contact: z.string().nullable(),
  createdAt: z.date(),
});
export type FeedbackView = z.infer<typeof zFeedbackView>;
