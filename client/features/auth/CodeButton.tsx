import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SendCodeResult } from '../../../src/schemas/auth.ts';
import { errorData } from '../../lib/errors.ts';

/** Seconds left until `deadline`, ticking once a second; `start` sets a new deadline. */
function useCountdown(): [number, (seconds: number) => void] {
  const [deadline, setDeadline] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const left = Math.max(0, Math.ceil((deadline - now) / 1000));
  useEffect(() => {
    if (left <= 0) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [left]);
  return [
    left,
    (seconds) => {
      setNow(Date.now());
      setDeadline(Date.now() + seconds * 1000);
    },
  ];
}

/** The seconds a "wait before asking again" refusal asks for, if it is one. */
function cooldownOf(error: unknown): number | null {
  const data = errorData(error);
  const seconds = data?.params?.seconds;
  return data?.messageKey === 'errors.codeCooldown' && typeof seconds === 'number' ? seconds : null;
}

/**
 * "Get code", then "Resend in 59 s" counting down from the server's cooldown. `send` validates
 * and asks for the code, resolving to null when validation stopped it.
 */
export function CodeButton({
  send,
  onSent,
  onFailed,
}: {
  send: () => Promise<SendCodeResult | null>;
  onSent?: () => void;
  onFailed: (error: unknown) => void;
}) {
  const { t } = useTranslation();
  const [left, start] = useCountdown();
  const [busy, setBusy] = useState(false);
  const click = async () => {
    setBusy(true);
    try {
      const result = await send();
      if (result) {
        start(result.cooldownSeconds);
        onSent?.();
      }
    } catch (error) {
      const seconds = cooldownOf(error);
      if (seconds) start(seconds);
      onFailed(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button
      type="button"
      className="button code-button"
      onClick={click}
      disabled={busy || left > 0}
      data-testid="get-code"
    >
      {left > 0 ? t('auth.resendIn', { seconds: left }) : t('auth.getCode')}
    </button>
  );
}
