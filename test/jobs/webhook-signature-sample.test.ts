import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { NODE_CHECK_FUNCTION, NODE_CHECK_SAMPLE } from '../../client/features/webhooks/signature-samples.ts';
import { setClock } from '../../server/clock.ts';
import { highlight } from '../helpers/push-setup.ts';
import { startWebhookTestEnv, subscriber, type WebhookTestEnv } from '../helpers/webhook-setup.ts';

// The receiver's check the webhook page shows, run by Node as a receiver would run it, against a
// real signed delivery and forgeries of its headers: it answers true or false, and never throws.

let env: WebhookTestEnv;
let dir: string;
beforeAll(async () => {
  env = await startWebhookTestEnv();
  // The sample judges freshness by the receiver's own clock: deliveries are signed at real time.
  setClock(new Date());
  dir = mkdtempSync(path.join(tmpdir(), 'margin-signature-sample-'));
});
afterAll(async () => {
  await env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Check {
  label: string;
  headers: IncomingHttpHeaders;
  raw: string;
  secret: string;
}

/** Runs the sample in its own Node process on each check; answers what it returned, or what it threw. */
function runNodeSample(checks: Check[]): Promise<Record<string, unknown>> {
  const file = path.join(dir, 'receiver.mjs');
  writeFileSync(
    file,
    `${NODE_CHECK_SAMPLE}

import { readFileSync } from 'node:fs';
const answers = {};
for (const { label, headers, raw, secret } of JSON.parse(readFileSync(0, 'utf8'))) {
  try {
    answers[label] = ${NODE_CHECK_FUNCTION}(headers, raw, secret);
  } catch (error) {
    answers[label] = \`threw \${error.name}: \${error.message}\`;
  }
}
process.stdout.write(JSON.stringify(answers));
`,
  );
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [file], (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout)),
    );
    child.stdin?.end(JSON.stringify(checks));
  });
}

const sign = (secret: string, timestamp: string, raw: string) =>
  `v1=${createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest('hex')}`;

test('the Node.js sample accepts a real delivery and refuses every forgery, throwing on none', async () => {
  const { reader, note, url, secret } = await subscriber(env, 'Signed at the harbour.', [
    'highlight.created',
  ]);
  await highlight(reader, note, 'harbour');
  const [hook] = await env.receiver.waitFor(url, 1);
  if (!hook) throw new Error('no delivery');
  const { headers, raw } = hook;
  const signature = String(headers['margin-webhook-signature']);
  const timestamp = String(headers['margin-webhook-timestamp']);
  const withSignature = (value: string | undefined) => ({ ...headers, 'margin-webhook-signature': value });
  const stale = String(Number(timestamp) - 600);
  // Each forged signature has as many characters as the real one, but more bytes.
  const sameLength = (char: string) => `v1=${char.repeat(signature.length - 3)}`;

  const answers = await runNodeSample([
    { label: 'as delivered', headers, raw, secret },
    { label: 'another secret', headers, raw, secret: `${secret}x` },
    { label: 'body changed', headers, raw: raw.replace('harbour', 'harbor'), secret },
    { label: 'non-ASCII signature', headers: withSignature(sameLength('é')), raw, secret },
    { label: 'CJK signature', headers: withSignature(sameLength('签')), raw, secret },
    { label: 'one non-ASCII character', headers: withSignature(`${signature.slice(0, -1)}é`), raw, secret },
    { label: 'too short', headers: withSignature('v1=abc'), raw, secret },
    { label: 'too long', headers: withSignature(`${signature}0`), raw, secret },
    { label: 'empty', headers: withSignature(''), raw, secret },
    { label: 'missing', headers: withSignature(undefined), raw, secret },
    {
      label: 'stale, signed right',
      headers: {
        ...headers,
        'margin-webhook-timestamp': stale,
        'margin-webhook-signature': sign(secret, stale, raw),
      },
      raw,
      secret,
    },
  ]);

  expect(answers).toEqual({
    'as delivered': true,
    'another secret': false,
    'body changed': false,
    'non-ASCII signature': false,
    'CJK signature': false,
    'one non-ASCII character': false,
    'too short': false,
    'too long': false,
    empty: false,
    missing: false,
    'stale, signed right': false,
  });
});
