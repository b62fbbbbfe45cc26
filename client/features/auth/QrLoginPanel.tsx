import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Me, QrCreated, QrStatus } from '../../../src/schemas/auth.ts';
import { useTRPCClient } from '../../trpc.ts';

const POLL_MS = 1500;

type PanelState = QrStatus | 'loading' | 'failed';

const MESSAGE: Record<PanelState, string> = {
  loading: 'app.loading',
  failed: 'errors.generic',
  pending: 'qr.pending',
  scanned: 'qr.scanned',
  confirmed: 'qr.confirmed',
  expired: 'qr.expired',
  cancelled: 'qr.cancelled',
};

/**
 * QR phone login: shows a ticket's code and polls it. An expired ticket is replaced by a new one;
 * a cancelled one waits for "Refresh code". Polling pauses while the tab is hidden.
 */
export function QrLoginPanel({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const { t } = useTranslation();
  const client = useTRPCClient();
  const [ticket, setTicket] = useState<QrCreated | null>(null);
  const [state, setState] = useState<PanelState>('loading');
  const [generation, setGeneration] = useState(0);
  const signedInRef = useRef(onSignedIn);
  signedInRef.current = onSignedIn;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `generation` is how a new ticket is asked for.
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const renew = () => setGeneration((g) => g + 1);

    const poll = async (created: QrCreated) => {
      if (stopped) return;
      if (!document.hidden) {
        try {
          const result = await client.auth.qrPoll.mutate({
            ticketId: created.ticketId,
            secret: created.secret,
          });
          if (stopped) return;
          if (result.status === 'confirmed' && result.me) {
            setState('confirmed');
            signedInRef.current(result.me);
            return;
          }
          setState(result.status);
          if (result.status === 'expired' || result.status === 'confirmed') return renew();
          if (result.status === 'cancelled') return;
        } catch {
          // A missed poll is tried again on the next tick.
        }
      }
      timer = setTimeout(() => void poll(created), POLL_MS);
    };

    setState('loading');
    client.auth.qrCreate.mutate().then(
      (created) => {
        if (stopped) return;
        setTicket(created);
        setState('pending');
        timer = setTimeout(() => void poll(created), POLL_MS);
      },
      () => {
        if (!stopped) setState('failed');
      },
    );
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [client, generation]);

  const showCode = ticket && state !== 'loading' && state !== 'failed';
  const dimmed = state !== 'pending';
  return (
    <section
      className="qr-panel"
      aria-labelledby="qr-title"
      data-testid="qr-panel"
      data-status={state}
      data-ticket-url={showCode ? ticket.url : undefined}
    >
      <h2 id="qr-title" className="qr-title">
        {t('qr.title')}
      </h2>
      <div className="qr-frame" data-dimmed={dimmed || undefined}>
        {showCode ? (
          <img
            className="qr-image"
            src={`data:image/svg+xml;utf8,${encodeURIComponent(ticket.svg)}`}
            alt={t('qr.imageAlt')}
            width={176}
            height={176}
          />
        ) : (
          <span className="spinner" aria-hidden="true" />
        )}
      </div>
      <p className="qr-message" role="status">
        {t(MESSAGE[state])}
      </p>
      {(state === 'cancelled' || state === 'failed') && (
        <button type="button" className="button" onClick={() => setGeneration((g) => g + 1)}>
          {t('qr.refresh')}
        </button>
      )}
    </section>
  );
}
