import { useTranslation } from 'react-i18next';
import { WEBHOOK_HEADERS, WEBHOOK_SIGNATURE_VERSION } from '../../../src/schemas/webhooks.ts';

const HEADERS = `POST /your/endpoint
Content-Type: application/json
${WEBHOOK_HEADERS.id}: <event id>
${WEBHOOK_HEADERS.timestamp}: <seconds since 1970>
${WEBHOOK_HEADERS.signature}: ${WEBHOOK_SIGNATURE_VERSION}=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>

{ "id": "…", "type": "highlight.created", "createAt": 1767225600, "data": { … } }`;

const NODE_EXAMPLE = `import { createHmac, timingSafeEqual } from 'node:crypto';

// rawBody: the request body exactly as received (before JSON.parse)
function fromMargin(headers, rawBody, secret) {
  const timestamp = headers['${WEBHOOK_HEADERS.timestamp.toLowerCase()}'];
  const expected = '${WEBHOOK_SIGNATURE_VERSION}=' +
    createHmac('sha256', secret).update(\`\${timestamp}.\${rawBody}\`).digest('hex');
  const given = String(headers['${WEBHOOK_HEADERS.signature.toLowerCase()}'] ?? '');
  const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) < 300;
  return fresh && given.length === expected.length &&
    timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}`;

/** How a receiver checks that a delivery came from Margin: the headers and a Node.js check. */
export function SignatureHelp() {
  const { t } = useTranslation();
  return (
    <details className="webhook-help" data-testid="webhook-help">
      <summary>{t('webhooks.verifyTitle')}</summary>
      <div className="webhook-help-body">
        <p>{t('webhooks.verifyBody')}</p>
        <pre className="webhook-code" dir="ltr">
          <code>{HEADERS}</code>
        </pre>
        <p>{t('webhooks.verifyRetries')}</p>
        <p>{t('webhooks.verifyExample')}</p>
        <pre className="webhook-code" dir="ltr">
          <code>{NODE_EXAMPLE}</code>
        </pre>
      </div>
    </details>
  );
}
