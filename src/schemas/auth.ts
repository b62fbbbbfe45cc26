import { z } from 'zod';
import { isLanguage } from '../constants.ts';
import { LoginType } from '../enums.ts';
import { zText } from '../rules/text.ts';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const CODE_LENGTH = 6;
export const CODE_TTL_MINUTES = 10;
export const CODE_MAX_TRIES = 5;
export const CODE_COOLDOWN_SECONDS = 60;
export const QR_TICKET_TTL_SECONDS = 120;
export const NICKNAME_MAX = 32;

/** Spec messages: "Email is Empty" for an empty email. Emails are compared lower-cased. */
export const zEmail = zText()
  .trim()
  .min(1, 'errors.emailEmpty')
  .max(254, 'errors.emailInvalid')
  .pipe(z.email('errors.emailInvalid'))
  .transform((e) => e.toLowerCase());

/** Spec: "Password required" when empty. */
export const zPassword = zText()
  .min(1, 'errors.passwordRequired')
  .min(PASSWORD_MIN, 'errors.passwordTooShort')
  .max(PASSWORD_MAX, 'errors.passwordTooLong');

/** Signing in checks only presence: a wrong length is just a wrong password. */
export const zLoginPassword = zText().min(1, 'errors.passwordRequired').max(1024, 'errors.passwordTooLong');

export const zCode = zText()
  .trim()
  .min(1, 'errors.cannotBeEmpty')
  .max(32, 'errors.codeInvalid')
  .regex(new RegExp(`^\\d{${CODE_LENGTH}}$`), 'errors.codeInvalid');

export const CodePurpose = {
  register: 'register',
  reset: 'reset',
  bind: 'bind',
  deleteAccount: 'delete',
} as const;
export type CodePurpose = (typeof CodePurpose)[keyof typeof CodePurpose];

/** Codes anyone may ask for (signed-in purposes have their own procedures). */
export const zSendCodeInput = z.object({ email: zEmail, purpose: z.enum(['register', 'reset']) });
export type SendCodeInput = z.infer<typeof zSendCodeInput>;

export const zSendCodeResult = z.object({ cooldownSeconds: z.number().int() });
export type SendCodeResult = z.infer<typeof zSendCodeResult>;

/** The new password typed again: compared with it, so only presence and size are checked here. */
const zRepeatPassword = zText().min(1, 'errors.cannotBeEmpty').max(PASSWORD_MAX, 'errors.passwordMismatch');

/** An emailed code plus a new password typed twice: signing up and recovering share it. */
const zCodeAndNewPassword = z
  .object({
    email: zEmail,
    code: zCode,
    password: zPassword,
    repeatPassword: zRepeatPassword,
  })
  .refine((v) => v.password === v.repeatPassword, {
    message: 'errors.passwordMismatch',
    path: ['repeatPassword'],
  });

export const zRegisterInput = zCodeAndNewPassword;
export type RegisterInput = z.infer<typeof zRegisterInput>;

export const zResetPasswordInput = zCodeAndNewPassword;
export type ResetPasswordInput = z.infer<typeof zResetPasswordInput>;

export const zLoginInput = z.object({
  email: zEmail,
  password: zLoginPassword,
  rememberMe: z.boolean().default(false),
});
export type LoginInput = z.infer<typeof zLoginInput>;

/** What the client knows about the signed-in user. */
export const zMe = z.object({
  nickname: z.string(),
  anonymous: z.boolean(),
  accountId: z.string(),
  email: z.string().nullable(),
  hasPassword: z.boolean(),
  language: z.string().nullable(),
  memberLevel: z.number().int(),
  membership: z.enum(['free', 'pro', 'superPro', 'expired']),
  proExpiresAt: z.date().nullable(),
  remainingProDays: z.number().int(),
  createdAt: z.date(),
});
export type Me = z.infer<typeof zMe>;

export const zLoginResult = z.object({ me: zMe });

export const zProviders = z.object({
  /** Login types this region allows and this install has configured, primary first. */
  loginTypes: z.array(z.enum(Object.values(LoginType) as [LoginType, ...LoginType[]])),
  oidcName: z.string().nullable(),
});
export type Providers = z.infer<typeof zProviders>;

// QR phone login -------------------------------------------------------------------------------

export const QrStatus = {
  pending: 'pending',
  scanned: 'scanned',
  confirmed: 'confirmed',
  expired: 'expired',
  cancelled: 'cancelled',
} as const;
export type QrStatus = (typeof QrStatus)[keyof typeof QrStatus];

export const zQrTicketId = zText()
  .max(64, 'errors.invalidInput')
  .regex(/^[A-Za-z0-9_-]{16,64}$/, 'errors.invalidInput');

export const zQrCreated = z.object({
  ticketId: zQrTicketId,
  /** Proves this browser created the ticket; only it can redeem the sign-in. */
  secret: z.string(),
  url: z.string(),
  svg: z.string(),
  expiresAt: z.date(),
});
export type QrCreated = z.infer<typeof zQrCreated>;

export const zQrPollInput = z.object({ ticketId: zQrTicketId, secret: zText().min(16).max(128) });
export const zQrPollResult = z.object({
  status: z.enum(Object.values(QrStatus) as [QrStatus, ...QrStatus[]]),
});

export const zQrTicketInput = z.object({ ticketId: zQrTicketId });
export const zQrRequester = z.object({
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  createdAt: z.date(),
});
export type QrRequester = z.infer<typeof zQrRequester>;
export const zQrDecideInput = z.object({ ticketId: zQrTicketId, approve: z.boolean() });

// Account settings -----------------------------------------------------------------------------

export const zNickname = zText()
  .trim()
  .min(1, 'errors.nicknameEmpty')
  .max(NICKNAME_MAX, 'errors.nicknameTooLong');
export const zUpdateProfileInput = z.object({ nickname: zNickname });
export const zSetLanguageInput = z.object({
  language: zText().max(16, 'errors.invalidInput').refine(isLanguage, 'errors.invalidInput'),
});

/** `oldPassword` is required when the account has a password; an account without one sets it. */
export const zChangePasswordInput = z
  .object({
    oldPassword: zLoginPassword.optional(),
    password: zPassword,
    repeatPassword: zRepeatPassword,
  })
  .refine((v) => v.password === v.repeatPassword, {
    message: 'errors.passwordMismatch',
    path: ['repeatPassword'],
  });

export const zSendBindCodeInput = z.object({ email: zEmail });
export const zBindEmailInput = z.object({ email: zEmail, code: zCode });

export const zBinding = z.object({
  provider: z.enum(['google']),
  email: z.string().nullable(),
  createdAt: z.date(),
});
export const zBindings = z.object({ email: z.string().nullable(), providers: z.array(zBinding) });
export const zUnbindProviderInput = z.object({ provider: z.enum(['google']) });

/** Re-authentication before deleting: the password, or (no password set) a code sent by email. */
export const zDeleteAccountInput = z.object({ password: zLoginPassword.optional(), code: zCode.optional() });
