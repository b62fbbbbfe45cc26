import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, Redirect, useSearch } from 'wouter';
import { formatDeviceCode, SHOWS_CODE_QUERY } from '../../../src/rules/device-flow.ts';
import { tokenAppOfServiceId, zSyncClientId } from '../../../src/schemas/sync.ts';
import { errorData } from '../../lib/errors.ts';
import { useTRPC } from '../../trpc.ts';
import { AuthLayout } from '../auth/AuthLayout.tsx';
import { loginPathFor, useMe } from '../auth/session.ts';
import { syncErrorMessage } from './sync-errors.ts';
import { useExtensionDeviceCode } from './use-extension-device-code.ts';
import '../../styles/sync.css';

type Step = 'asking' | 'allowed' | 'cancelled';

/** The server's answers that mean the app shows a code this page must ask for. */
const CODE_ERRORS = new Set(['errors.deviceCodeNeeded', 'errors.deviceCodeWrong']);

/**
 * /page/gentoken/:serviceId/:clientId, opened by a note-tool plugin in the user's browser (the
 * device flow): a signed-in user allows the plugin, which then collects its token by polling.
 * Margin's plugins and the browser extension show a code while they wait (`?code=shown`): the
 * page asks for it (the extension fills it in), so only the app that opened the page connects.
 * Signed out, the user signs in and comes back here.
 */
export function DeviceConfirmPage({ serviceId, clientId }: { serviceId: number; clientId: string }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const { data: me } = useMe();
  const search = useSearch();
  const codeId = useId();
  const [step, setStep] = useState<Step>('asking');
  const [typedCode, setTypedCode] = useState<string | null>(null);
  const extensionCode = useExtensionDeviceCode();
  const confirm = useMutation(
    trpc.sync.confirmDevice.mutationOptions({ onSuccess: () => setStep('allowed') }),
  );
  const tokenApp = tokenAppOfServiceId(serviceId);
  const path = `/page/gentoken/${serviceId}/${encodeURIComponent(clientId)}${search ? `?${search}` : ''}`;
  if (me === null) return <Redirect to={loginPathFor(path)} replace />;

  const code = typedCode ?? (extensionCode && formatDeviceCode(extensionCode));
  const asksCode =
    search === SHOWS_CODE_QUERY ||
    Boolean(extensionCode) ||
    CODE_ERRORS.has(errorData(confirm.error)?.messageKey ?? '');

  const app = tokenApp ? t(`sync.app.${tokenApp}`) : '';
  // What can be known before asking the server: a tool Margin does not know, a malformed client id.
  const invalidKey = !tokenApp
    ? 'errors.syncServiceUnknown'
    : !zSyncClientId.safeParse(clientId).success
      ? 'errors.syncClientInvalid'
      : null;
  const title = tokenApp ? t('sync.deviceTitle', { app }) : t('sync.deviceTitleUnknown');
  const done = step !== 'asking';
  return (
    <AuthLayout title={title}>
      <div
        className="qr-confirm device-confirm"
        data-testid="device-confirm"
        data-step={invalidKey ? 'invalid' : step}
      >
        {invalidKey ? (
          <p className="notice notice-warning" role="alert">
            {t(invalidKey)}
          </p>
        ) : done ? (
          <p className="notice" role="status" data-testid="device-done">
            {step === 'allowed' ? t('sync.deviceDone', { app }) : t('sync.deviceCancelled')}
          </p>
        ) : !me ? (
          <p className="muted" role="status">
            {t('app.loading')}
          </p>
        ) : (
          <>
            <p data-testid="device-question">
              <Trans
                i18nKey="sync.deviceBody"
                values={{ app, account: me.email ?? me.nickname }}
                components={{ account: <bdi className="device-account" /> }}
              />
            </p>
            <p className="form-note">{t('sync.deviceDetail', { app })}</p>
            {asksCode && (
              <div className="field">
                <label htmlFor={codeId}>{t('sync.deviceCodeLabel', { app })}</label>
                <input
                  id={codeId}
                  data-testid="device-code"
                  value={code}
                  onChange={(event) => setTypedCode(event.target.value)}
                  autoComplete="off"
                  autoCapitalize="characters"
                  spellCheck={false}
                  maxLength={16}
                  aria-describedby={`${codeId}-hint`}
                />
                <p id={`${codeId}-hint`} className="field-hint">
                  {t('sync.deviceCodeHint', { app })}
                </p>
              </div>
            )}
            {confirm.isError && (
              <p className="notice notice-warning" role="alert" data-testid="device-error">
                {syncErrorMessage(confirm.error, t)}
              </p>
            )}
            <div className="button-row">
              <button
                type="button"
                className="button"
                disabled={confirm.isPending}
                onClick={() => setStep('cancelled')}
              >
                {t('common.cancel')}
              </button>
              <button
                type="button"
                className="button button-primary"
                disabled={confirm.isPending || (asksCode && !code.trim())}
                data-testid="device-allow"
                onClick={() => confirm.mutate({ serviceId, clientId, ...(asksCode && { userCode: code }) })}
              >
                {t('sync.deviceAllow')}
              </button>
            </div>
          </>
        )}
        {(done || invalidKey) && (
          <Link href="/" className="button button-block">
            {t('notFound.home')}
          </Link>
        )}
      </div>
    </AuthLayout>
  );
}
