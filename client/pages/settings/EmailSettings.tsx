import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type Me, zBindEmailInput, zSendBindCodeInput } from '../../../src/schemas/auth.ts';
import { TextField, useForm } from '../../components/form.tsx';
import { ConfirmDialog } from '../../features/account/ConfirmDialog.tsx';
import { useMeUpdate } from '../../features/account/use-me-update.ts';
import { CodeField } from '../../features/auth/CodePasswordFields.tsx';
import { notify } from '../../lib/notify.ts';
import { useTRPC, useTRPCClient } from '../../trpc.ts';

function BindEmailForm({ bound }: { bound: boolean }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const update = useMeUpdate();
  const form = useForm(
    { email: '', code: '' },
    { 'errors.codeInvalid': 'code', 'errors.codeTooManyTries': 'code', 'errors.emailTaken': 'email' },
  );
  const bind = useMutation(
    trpc.account.bindEmail.mutationOptions({
      onSuccess: (me) => {
        update.set(me);
        void update.refetch();
        form.reset();
        notify.success('account.emailBound');
      },
      onError: form.fail,
    }),
  );
  const sendCode = async () => {
    const input = form.check(zSendBindCodeInput, { email: form.values.email });
    if (!input) return null;
    const result = await client.account.sendBindCode.mutate(input);
    notify.info('auth.codeSent', { email: input.email });
    return result;
  };
  return (
    <form
      className="form form-narrow"
      noValidate
      data-testid="bind-email-form"
      onSubmit={(event) => {
        event.preventDefault();
        const input = form.check(zBindEmailInput, form.values);
        if (input) bind.mutate(input);
      }}
    >
      <TextField form={form} name="email" label={t('account.newEmail')} type="email" autoComplete="email" />
      <CodeField form={form} label={t('auth.code')} send={sendCode} />
      <div>
        <button type="submit" className="button button-primary" disabled={bind.isPending}>
          {bound ? t('account.changeEmail') : t('account.bindEmail')}
        </button>
      </div>
    </form>
  );
}

/** /personSetting/email: the bound email, binding a new one with a code, and unbinding. */
export function EmailSettings({ me }: { me: Me }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const update = useMeUpdate();
  const unbind = useMutation(
    trpc.account.unbindEmail.mutationOptions({
      onSuccess: () => {
        void update.refetch();
        notify.success('account.unbindDone');
      },
    }),
  );
  return (
    <div className="settings-stack">
      <section className="settings-section" aria-labelledby="current-email-title">
        <h2 id="current-email-title" className="section-title">
          {t('account.currentEmail')}
        </h2>
        <div className="setting-row">
          <p className="setting-value" data-testid="current-email">
            {me.email ? <bdi>{me.email}</bdi> : <span className="muted">{t('account.noEmail')}</span>}
          </p>
          {me.email && (
            <ConfirmDialog
              title={t('account.unbindConfirm')}
              confirmLabel={t('account.unbind')}
              danger
              onConfirm={() => unbind.mutate()}
            >
              <button type="button" className="button button-danger" disabled={unbind.isPending}>
                {t('account.unbindEmail')}
              </button>
            </ConfirmDialog>
          )}
        </div>
      </section>
      <section className="settings-section" aria-labelledby="bind-email-title">
        <h2 id="bind-email-title" className="section-title">
          {me.email ? t('account.changeEmail') : t('account.bindEmail')}
        </h2>
        <BindEmailForm bound={Boolean(me.email)} />
      </section>
    </div>
  );
}
