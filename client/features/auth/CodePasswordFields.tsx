import { useTranslation } from 'react-i18next';
import { CODE_LENGTH, PASSWORD_MIN, type SendCodeResult, zSendCodeInput } from '../../../src/schemas/auth.ts';
import { type Form, TextField, useForm } from '../../components/form.tsx';
import { notify } from '../../lib/notify.ts';
import { useTRPCClient } from '../../trpc.ts';
import { CodeButton } from './CodeButton.tsx';

export type CodePasswordField = 'email' | 'code' | 'password' | 'repeatPassword';

/** Sign-up and recovery: an emailed code and a new password typed twice. */
export function useCodePasswordForm(): Form<CodePasswordField> {
  return useForm<CodePasswordField>(
    { email: '', code: '', password: '', repeatPassword: '' },
    { 'errors.codeInvalid': 'code', 'errors.codeTooManyTries': 'code', 'errors.emailTaken': 'email' },
  );
}

export function CodePasswordFields({
  form,
  purpose,
  passwordLabel,
}: {
  form: Form<CodePasswordField>;
  purpose: 'register' | 'reset';
  passwordLabel: string;
}) {
  const { t } = useTranslation();
  const client = useTRPCClient();
  const sendCode = async () => {
    const input = form.check(zSendCodeInput, { email: form.values.email, purpose });
    if (!input) return null;
    const result = await client.auth.sendCode.mutate(input);
    notify.info('auth.codeSent', { email: input.email });
    return result;
  };
  return (
    <>
      <TextField form={form} name="email" label={t('auth.email')} type="email" autoComplete="email" />
      <CodeField form={form} label={t('auth.code')} send={sendCode} />
      <NewPasswordFields form={form} label={passwordLabel} />
    </>
  );
}

/** A numeric one-time-code field with the button that emails the code. */
export function CodeField({
  form,
  label,
  send,
}: {
  form: Form<'code'>;
  label: string;
  send: () => Promise<SendCodeResult | null>;
}) {
  return (
    <TextField
      form={form}
      name="code"
      label={label}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={CODE_LENGTH}
      action={<CodeButton send={send} onSent={() => form.focus('code')} onFailed={form.fail} />}
    />
  );
}

/** A new password with its length hint, then the same password again. */
export function NewPasswordFields({
  form,
  label,
}: {
  form: Form<'password' | 'repeatPassword'>;
  label: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <TextField
        form={form}
        name="password"
        label={label}
        type="password"
        autoComplete="new-password"
        hint={t('auth.passwordHint', { min: PASSWORD_MIN })}
      />
      <TextField
        form={form}
        name="repeatPassword"
        label={t('auth.repeatPassword')}
        type="password"
        autoComplete="new-password"
      />
    </>
  );
}
