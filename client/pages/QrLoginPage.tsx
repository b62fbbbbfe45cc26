import { useMutation } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Redirect } from 'wouter';
import { isolate } from '../../src/rules/bidi.ts';
import { userAgentParts } from '../../src/rules/user-agent.ts';
import type { QrRequester } from '../../src/schemas/auth.ts';
import { AuthLayout } from '../features/auth/AuthLayout.tsx';
import { loginPathFor, useMe } from '../features/auth/session.ts';
import { errorData } from '../lib/errors.ts';
import { formatDateTime } from '../lib/format-date.ts';
import { notify } from '../lib/notify.ts';
import { useTRPC } from '../trpc.ts';

type Step = 'scanning' | 'asking' | 'approved' | 'rejected' | 'invalid';

/** A ticket that is gone, used or not ours reads as "no longer valid"; anything else is a toast. */
function isInvalidTicket(error: unknown): boolean {
  return ['qr.invalid', 'errors.invalidInput'].includes(errorData(error)?.messageKey ?? '');
}

/** "Chrome on macOS" for the browser that asks (the names set apart, so they keep their order in Arabic). */
function browserLabel(userAgent: string | null, t: TFunction): string {
  const { browser, os } = userAgentParts(userAgent);
  const name = browser === 'WeChat' ? t('qr.wechat') : browser;
  if (!os) return name ?? t('qr.unknownBrowser');
  return t('qr.browserOn', { browser: isolate(name ?? t('qr.unknownBrowser')), os: isolate(os) });
}

function RequesterDetails({ requester }: { requester: QrRequester }) {
  const { t, i18n } = useTranslation();
  const time = isolate(formatDateTime(requester.createdAt, i18n.language));
  return (
    <div data-testid="qr-requester">
      <dl className="details">
        <dt>{t('qr.browser')}</dt>
        <dd data-testid="qr-browser" title={requester.userAgent ?? undefined}>
          {browserLabel(requester.userAgent, t)}
        </dd>
        <dt>{t('qr.ip')}</dt>
        <dd>
          <bdi>{requester.ip ?? t('qr.unknown')}</bdi>
        </dd>
      </dl>
      <p className="form-note">{t('qr.requestedAt', { time })}</p>
    </div>
  );
}

/** /qrlogin/:ticketId, opened on a signed-in phone: show who asks, then approve or cancel. */
export function QrLoginPage({ ticketId }: { ticketId: string }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const { data: me } = useMe();
  const [step, setStep] = useState<Step>('scanning');
  const onError = (error: unknown) => {
    if (isInvalidTicket(error)) setStep('invalid');
    else notify.error(error);
  };
  const scan = useMutation(trpc.auth.qrScan.mutationOptions({ onSuccess: () => setStep('asking'), onError }));
  const decide = useMutation(
    trpc.auth.qrDecide.mutationOptions({
      onSuccess: (_result, input) => setStep(input.approve ? 'approved' : 'rejected'),
      onError,
    }),
  );
  const scanned = useRef<string | null>(null);
  const { mutate: scanTicket } = scan;
  useEffect(() => {
    if (!me || scanned.current === ticketId) return;
    scanned.current = ticketId;
    scanTicket({ ticketId });
  }, [me, ticketId, scanTicket]);

  if (me === null) return <Redirect to={loginPathFor(`/qrlogin/${ticketId}`)} replace />;

  const done: Partial<Record<Step, string>> = {
    approved: 'qr.approvedDone',
    rejected: 'qr.rejectedDone',
    invalid: 'qr.invalid',
  };
  const doneKey = done[step];
  return (
    <AuthLayout title={t('qr.confirmTitle')}>
      <div className="qr-confirm" data-testid="qr-confirm" data-step={step}>
        {doneKey ? (
          <>
            <p className={step === 'invalid' ? 'notice notice-warning' : 'notice'} role="status">
              {t(doneKey)}
            </p>
            <Link href="/" className="button button-block">
              {t('notFound.home')}
            </Link>
          </>
        ) : step === 'asking' && scan.data ? (
          <>
            <p>{t('qr.confirmBody')}</p>
            <RequesterDetails requester={scan.data} />
            {me && <p className="form-note">{t('auth.signedInAs', { name: me.nickname })}</p>}
            <div className="button-row">
              <button
                type="button"
                className="button"
                disabled={decide.isPending}
                onClick={() => decide.mutate({ ticketId, approve: false })}
              >
                {t('qr.reject')}
              </button>
              <button
                type="button"
                className="button button-primary"
                disabled={decide.isPending}
                onClick={() => decide.mutate({ ticketId, approve: true })}
              >
                {t('qr.approve')}
              </button>
            </div>
          </>
        ) : (
          <p className="muted" role="status">
            {t('app.loading')}
          </p>
        )}
      </div>
    </AuthLayout>
  );
}
