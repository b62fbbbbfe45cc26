import { useTranslation } from 'react-i18next';
import { DELIVERY_SAMPLE, NODE_CHECK_SAMPLE } from './signature-samples.ts';

/** How a receiver checks that a delivery came from Margin: the headers and a Node.js check. */
export function SignatureHelp() {
  const { t } = useTranslation();
  return (
    <details className="webhook-help" data-testid="webhook-help">
      <summary>{t('webhooks.verifyTitle')}</summary>
      <div className="webhook-help-body">
        <p>{t('webhooks.verifyBody')}</p>
        <pre className="webhook-code" dir="ltr">
          <code>{DELIVERY_SAMPLE}</code>
        </pre>
        <p>{t('webhooks.verifyRetries')}</p>
        <p>{t('webhooks.verifyExample')}</p>
        <pre className="webhook-code" dir="ltr">
          <code>{NODE_CHECK_SAMPLE}</code>
        </pre>
      </div>
    </details>
  );
}
