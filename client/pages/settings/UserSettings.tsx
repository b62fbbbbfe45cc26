import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type Me, zUpdateProfileInput } from '../../../src/schemas/auth.ts';
import { TextField, useForm } from '../../components/form.tsx';
import { LocalTime } from '../../components/LocalTime.tsx';
import { useMeUpdate } from '../../features/account/use-me-update.ts';
import { useSignOut } from '../../features/account/use-sign-out.ts';
import { PlanStanding } from '../../features/membership/PlanStanding.tsx';
import { useMembershipSwitch } from '../../features/membership/use-membership-on.ts';
import { notify } from '../../lib/notify.ts';
import { useTRPC } from '../../trpc.ts';

function NicknameForm({ me }: { me: Me }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const update = useMeUpdate();
  const form = useForm({ nickname: me.nickname });
  const save = useMutation(
    trpc.account.updateProfile.mutationOptions({
      onSuccess: (next) => {
        update.set(next);
        form.set('nickname', next.nickname);
        notify.success('toast.saveSuccess');
      },
      onError: form.fail,
    }),
  );
  return (
    <form
      className="form form-narrow"
      noValidate
      data-testid="nickname-form"
      onSubmit={(event) => {
        event.preventDefault();
        const input = form.check(zUpdateProfileInput, form.values);
        if (input) save.mutate(input);
      }}
    >
      <TextField
        form={form}
        name="nickname"
        label={t('account.nickname')}
        autoComplete="nickname"
        action={
          <button
            type="submit"
            className="button"
            disabled={save.isPending || form.values.nickname === me.nickname}
          >
            {t('common.save')}
          </button>
        }
      />
    </form>
  );
}

/** /personSetting/user: nickname, account facts, membership and sessions. */
export function UserSettings({ me }: { me: Me }) {
  const { t } = useTranslation();
  const { signOutEverywhere, pending } = useSignOut();
  // With membership off every feature is open: there is no plan to speak of.
  const plans = useMembershipSwitch()?.on === true;
  return (
    <div className="settings-stack">
      <section className="settings-section" aria-labelledby="profile-title">
        <h2 id="profile-title" className="section-title">
          <bdi>{me.nickname}</bdi>
          {me.anonymous && (
            <span className="badge" data-testid="anonymous-badge">
              {t('account.anonymous')}
            </span>
          )}
        </h2>
        <NicknameForm key={me.nickname} me={me} />
        <dl className="details">
          <dt>{t('account.accountId')}</dt>
          <dd>
            <bdi className="mono">{me.accountId}</bdi>
          </dd>
          <dt>{t('account.email')}</dt>
          <dd>{me.email ? <bdi>{me.email}</bdi> : <span className="muted">{t('account.noEmail')}</span>}</dd>
          {plans && (
            <>
              <dt>{t('account.plan')}</dt>
              <dd>
                <PlanStanding me={me} />
              </dd>
            </>
          )}
          {plans && me.proExpiresAt && (
            <>
              <dt>{t('account.expiry')}</dt>
              <dd>
                <LocalTime date={me.proExpiresAt} style="longDate" />
              </dd>
            </>
          )}
        </dl>
      </section>
      <section className="settings-section" aria-labelledby="sessions-title">
        <h2 id="sessions-title" className="section-title">
          {t('account.sessions')}
        </h2>
        <p className="muted">{t('account.sessionsHint')}</p>
        <div>
          <button type="button" className="button" onClick={signOutEverywhere} disabled={pending}>
            {t('auth.logoutEverywhere')}
          </button>
        </div>
      </section>
    </div>
  );
}
