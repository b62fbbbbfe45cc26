import { WEBHOOK_HEADERS, WEBHOOK_SIGNATURE_VERSION } from '../../../src/schemas/webhooks.ts';

// The code the webhook page shows receivers, kept apart from the page so a test runs it against
// real deliveries and forged headers.

/** What a delivery looks like on the wire. */
export const DELIVERY_SAMPLE = `POST /your/endpoint
Content-Type: application/json
${WEBHOOK_HEADERS.id}: <event id>
${WEBHOOK_HEADERS.timestamp}: <seconds since 1970>
${WEBHOOK_HEADERS.signature}: ${WEBHOOK_SIGNATURE_VERSION}=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>

{ "id": "…", "type": "highlight.created", "createAt": 1767225600, "data": { … } }`;

/** The name of the Node.js sample's function, for the test that calls it. */
export const NODE_CHECK_FUNCTION = 'fromMargin';

/**
 * A receiver's check in Node.js: true for a fresh delivery signed with the secret, false for
 * anything else. The signatures are compared as bytes, whose lengths must match before
 * timingSafeEqual (a header of other characters can have the same length in characters).
 */
export const NODE_CHECK_SAMPLE = `import { createHmac, timingSafeEqual } from 'node:crypto';

// rawBody: the request body exactly as received (before JSON.parse)
function ${NODE_CHECK_FUNCTION}(headers, rawBody, secret) {
  const timestamp = headers['${WEBHOOK_HEADERS.timestamp.toLowerCase()}'];
  const expected = Buffer.from('${WEBHOOK_SIGNATURE_VERSION}=' +
    createHmac('sha256', secret).update(\`\${timestamp}.\${rawBody}\`).digest('hex'));
  const given = Buffer.from(String(headers['${WEBHOOK_HEADERS.signature.toLowerCase()}'] ?? ''));
  const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) < 300;
  return fresh && given.length === expected.length && timingSafeEqual(given, expected);
}`;
