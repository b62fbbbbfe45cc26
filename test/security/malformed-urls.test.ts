import type { Express } from 'express';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createApp } from '../../server/app.ts';
import { CoreType } from '../../src/enums.ts';
import { flattenMessages } from '../../src/i18n/keys.ts';
import en from '../../src/i18n/locales/en.json' with { type: 'json' };
import { newId } from '../../src/rules/id.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { extensionUser } from '../helpers/extension.ts';
import { type RunningServer, startServer } from '../helpers/http.ts';
import { apiUser } from '../helpers/openapi.ts';
import { article } from '../helpers/site.ts';
import { queryValue, URL_CASES, type UrlCase } from './malformed-urls.ts';
import { callProcedure, fingerprint, makeFixtures } from './router-inventory.ts';

// Every input that takes a URL, over HTTP as the app, a script or the extension sends it, with
// every address of the table: a refusal is a 4xx with that input's own translated message and
// changes no row; a usable address written unusually is accepted where the input takes it.
// (The OIDC sign-in's `next`, a path, is walked over the same table in test/api/oidc.test.ts.)

let deps: TestDeps;
let server: RunningServer;
let app: Express;
const english = flattenMessages(en);
const keyOfEnglish = new Map([...english].map(([key, text]) => [text, key]));

beforeAll(async () => {
  deps = await createTestDeps();
  server = await startServer(deps);
  app = createApp(deps);
});
afterAll(async () => {
  await server?.close();
  await deps?.close();
});

interface Answer {
  status: number;
  /** The message key of a refusal (the Open API's English message turned back into its key). */
  message: string | undefined;
}

interface UrlInput {
  name: string;
  /** The message keys this input refuses a URL with. */
  refusals: readonly string[];
  accepts(c: UrlCase): boolean;
  send(url: string): Promise<Answer>;
}

const WEB_PAGE_REFUSALS = ['errors.urlInvalid', 'errors.invalidCharacters', 'errors.tooLong'];
const WEBHOOK_REFUSALS = [
  'errors.webhookUrlInvalid',
  'errors.webhookUrlNotHttps',
  'errors.webhookUrlPrivate',
  'errors.invalidCharacters',
  'errors.tooLong',
];
const usable = (c: UrlCase) => c.usable;
/** A webhook address carries no credentials: a receiver's secret is the signature's. */
const usableWithoutCredentials = (c: UrlCase) => c.usable && !c.url.includes('@');
/** flomo's and SiYuan's addresses are their own service's: no address of the table is one. */
const none = () => false;

async function urlInputs(): Promise<UrlInput[]> {
  const owner = await makeFixtures(deps, 'urls');
  const trpc = (path: string, build: (url: string) => unknown) => async (url: string) => {
    const res = await callProcedure(app, { path, type: 'mutation' }, build(url), owner.token);
    return { status: res.status, message: res.error?.messageKey };
  };

  const scripted = await apiUser(deps);
  const { note } = await scripted.caller.notes.clipHtml({
    url: 'https://example.test/scripted',
    html: article('Scripted', ['A page.']),
  });
  const extension = await extensionUser(deps, server.url);
  const rest =
    (
      headers: Record<string, string>,
      method: 'GET' | 'POST',
      route: (url: string) => string,
      body?: (url: string) => unknown,
    ) =>
    async (url: string) => {
      const response = await fetch(`${server.url}/openapi/v1${route(url)}`, {
        method,
        headers: { ...headers, ...(body && { 'content-type': 'application/json' }) },
        body: body && JSON.stringify(body(url)),
      });
      const envelope = (await response.json()) as {
        message: string;
        error?: { fields?: { message: string }[] };
      };
      const text = envelope.error?.fields?.[0]?.message ?? envelope.message;
      return { status: response.status, message: response.ok ? undefined : keyOfEnglish.get(text) };
    };
  const apiHeaders = { Authorization: `Bearer ${scripted.apiToken}` };
  // Each token's first use stamps its last-used time: done here, so no refusal below is blamed for it.
  for (const headers of [apiHeaders, extension.headers]) {
    expect((await fetch(`${server.url}/openapi/v1/extension/settings`, { headers })).status).toBeLessThan(
      500,
    );
  }

  return [
    {
      name: 'webhooks.create',
      refusals: WEBHOOK_REFUSALS,
      accepts: usableWithoutCredentials,
      send: trpc('webhooks.create', (url) => ({ url, events: ['note.created'] })),
    },
    {
      name: 'webhooks.update',
      refusals: WEBHOOK_REFUSALS,
      accepts: usableWithoutCredentials,
      send: trpc('webhooks.update', (url) => ({ id: owner.fx.webhookEndpointId, url })),
    },
    {
      name: 'notes.clip',
      refusals: WEB_PAGE_REFUSALS,
      accepts: usable,
      send: trpc('notes.clip', (url) => ({ url })),
    },
    {
      name: 'notes.clipHtml',
      refusals: WEB_PAGE_REFUSALS,
      accepts: usable,
      send: trpc('notes.clipHtml', (url) => ({ url, html: article('Sent', ['A page.']) })),
    },
    {
      name: 'highlights.create (image)',
      refusals: WEB_PAGE_REFUSALS,
      accepts: usable,
      send: trpc('highlights.create', (url) => ({
        id: newId(),
        noteId: owner.fx.noteId,
        coreType: CoreType.image,
        imageUrl: url,
      })),
    },
    {
      name: 'sync.connectPush (flomo webhook)',
      refusals: ['errors.flomoUrlInvalid', 'errors.invalidCharacters', 'errors.urlInvalid'],
      accepts: none,
      send: trpc('sync.connectPush', (url) => ({ app: 'flomo', credentials: { webhookUrl: url } })),
    },
    {
      name: 'sync.connectPush (SiYuan kernel)',
      // A usable address is tried, and no kernel answers there.
      refusals: ['errors.urlInvalid', 'errors.invalidCharacters', 'errors.siyuanUnreachable'],
      accepts: none,
      send: trpc('sync.connectPush', (url) => ({
        app: 'siyuan',
        credentials: { kernelUrl: url, token: 'token', notebook: 'Margin' },
      })),
    },
    {
      name: 'POST /openapi/v1/notes (URL)',
      refusals: WEB_PAGE_REFUSALS,
      accepts: usable,
      send: rest(
        apiHeaders,
        'POST',
        () => '/notes',
        (url) => ({ url }),
      ),
    },
    {
      name: 'POST /openapi/v1/notes (HTML)',
      refusals: WEB_PAGE_REFUSALS,
      accepts: usable,
      send: rest(
        apiHeaders,
        'POST',
        () => '/notes',
        (url) => ({ url, html: article('Sent', ['A page.']) }),
      ),
    },
    {
      name: 'POST /openapi/v1/highlights (image)',
      refusals: WEB_PAGE_REFUSALS,
      accepts: usable,
      send: rest(
        apiHeaders,
        'POST',
        () => '/highlights',
        (url) => ({ noteId: note.id, coreType: CoreType.image, imageUrl: url }),
      ),
    },
    {
      name: 'GET /openapi/v1/extension/page',
      refusals: WEB_PAGE_REFUSALS,
      // A query string cannot carry a lone surrogate: its bytes arrive as a usable (if odd) path.
      accepts: (c) => c.usable || c.label === 'lone surrogate',
      send: rest(extension.headers, 'GET', (url) => `/extension/page?url=${queryValue(url)}`),
    },
    {
      name: 'POST /openapi/v1/extension/notes',
      refusals: WEB_PAGE_REFUSALS,
      accepts: usable,
      send: rest(
        extension.headers,
        'POST',
        () => '/extension/notes',
        (url) => ({ url }),
      ),
    },
    {
      name: 'POST /openapi/v1/extension/uploads',
      refusals: WEB_PAGE_REFUSALS,
      accepts: usable,
      send: rest(
        extension.headers,
        'POST',
        () => '/extension/uploads',
        (url) => ({ url }),
      ),
    },
  ];
}

test('every URL input: a 4xx with its own translated message that changes nothing, or accepted when usable', async () => {
  const wrong: string[] = [];
  let refusals = 0;
  const inputs = await urlInputs();
  for (const input of inputs) {
    for (const key of input.refusals) expect(english.has(key), key).toBe(true);
    let before = await fingerprint(deps);
    for (const c of URL_CASES.filter((c) => !input.accepts(c))) {
      const answer = await input.send(c.url);
      refusals++;
      const refused = answer.status >= 400 && answer.status < 500;
      if (!refused || !input.refusals.includes(answer.message ?? '')) {
        wrong.push(`${input.name}, ${c.label}: ${answer.status} ${answer.message}`);
      }
      const after = await fingerprint(deps);
      if (JSON.stringify(after) !== JSON.stringify(before)) {
        wrong.push(`${input.name}, ${c.label}: rows changed`);
        before = after;
      }
    }
    for (const c of URL_CASES.filter((c) => input.accepts(c))) {
      const answer = await input.send(c.url);
      if (answer.status >= 300)
        wrong.push(`${input.name}, ${c.label} (usable): ${answer.status} ${answer.message}`);
    }
  }
  expect(wrong).toEqual([]);
  console.log(
    `URL inputs: ${inputs.length} inputs × ${URL_CASES.length} addresses, ${refusals} refused, 0 5xx`,
  );
});
