import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MOBILE_SIDEBAR_MAX, OIDC_FAILED_PARAM, OIDC_FAILED_VALUE } from '../../../src/constants.ts';
import { LoginType } from '../../../src/enums.ts';
import type { Me } from '../../../src/schemas/auth.ts';
import { useMediaQuery } from '../../lib/use-media-query.ts';
import { useTRPC } from '../../trpc.ts';
import { QrLoginPanel } from './QrLoginPanel.tsx';

/** The provider sign-in route (a full-page navigation to the identity provider and back). */
const OIDC_START = '/auth/oidc/start';

/** The provider route that signs in (or, with `bind`, connects) and then comes back to `next`. */
export function oidcStartPath(next: string, intent: 'signin' | 'bind' = 'signin'): string {
  const params = new URLSearchParams();
  if (intent === 'bind') params.set('intent', 'bind');
  if (next !== '/') params.set('next', next);
  const query = params.toString();
  return query ? `${OIDC_START}?${query}` : OIDC_START;
}

/** Whether the provider routes sent the browser back because a sign-in or a binding did not work. */
export function oidcFailed(search: string): boolean {
  return new URLSearchParams(search).get(OIDC_FAILED_PARAM) === OIDC_FAILED_VALUE;
}

/** Whether this install offers sign-in with Google (region allows it and it is configured). */
export function useOidcProvider(): string | null {
  const trpc = useTRPC();
  const { data } = useQuery(trpc.auth.providers.queryOptions());
  return data?.loginTypes.includes(LoginType.google) ? (data.oidcName ?? 'Google') : null;
}

/**
 * "Other login methods": a provider button when one is configured, and QR phone login. On a
 * phone the QR code waits behind a button: it is meant to be scanned, not shown, there.
 */
export function OtherLoginMethods({ next, onSignedIn }: { next: string; onSignedIn: (me: Me) => void }) {
  const { t } = useTranslation();
  const provider = useOidcProvider();
  const small = useMediaQuery(`(max-width: ${MOBILE_SIDEBAR_MAX}px)`);
  const [qrOpen, setQrOpen] = useState(false);
  return (
    <section className="other-methods" aria-labelledby="other-methods-title">
      <h2 id="other-methods-title" className="divider-title">
        <span>{t('auth.otherMethods')}</span>
      </h2>
      {provider && (
        <a className="button button-block" href={oidcStartPath(next)} data-testid="oidc-login">
          {t('auth.continueWith', { provider })}
        </a>
      )}
      {small && !qrOpen ? (
        <button type="button" className="button button-block" onClick={() => setQrOpen(true)}>
          {t('auth.qrLogin')}
        </button>
      ) : (
        <QrLoginPanel onSignedIn={onSignedIn} />
      )}
    </section>
  );
}
