import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../sync/CopyButton.tsx';

/** The signing secret, shown this once, with a copy button; focus starts on Copy. */
export function NewSecret({ secret, onDone }: { secret: string; onDone(): void }) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.querySelector<HTMLButtonElement>('[data-testid="copy-secret"]')?.focus(), []);
  return (
    <div ref={box} className="new-token" role="status" data-testid="webhook-secret">
      <p>
        <strong>{t('webhooks.secretTitle')}</strong>
      </p>
      <p className="new-token-warning">{t('webhooks.secretWarning')}</p>
      <div className="new-token-value">
        <code className="mono" dir="ltr" data-testid="webhook-secret-value">
          {secret}
        </code>
        <CopyButton text={secret} testId="copy-secret" />
      </div>
      <div>
        <button type="button" className="button button-small" onClick={onDone}>
          {t('common.done')}
        </button>
      </div>
    </div>
  );
}
