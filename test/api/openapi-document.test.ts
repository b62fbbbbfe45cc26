import fs from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OPERATIONS } from '../../server/openapi/operations/index.ts';
import { ClipStatus, CoreType, Flow } from '../../src/enums.ts';
import { API_SCOPES } from '../../src/schemas/api-tokens.ts';
import { sharedBrowser } from '../helpers/browser.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { type RunningServer, startServer } from '../helpers/http.ts';
import { generatedTypes, SCHEMA_FILE } from '../openapi/generate-types.ts';

// The served OpenAPI document: valid OpenAPI 3.1, every operation described as a caller needs
// it, the generated client's types current, and the docs page served from this server alone.

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** The parts of an OpenAPI 3.1 document these tests read. */
interface ServedDocument {
  openapi: string;
  paths?: Record<string, Partial<Record<(typeof METHODS)[number], DocumentedOperation>>>;
  components?: {
    securitySchemes?: Record<string, unknown>;
    schemas?: Record<string, { properties?: Record<string, { description?: string }> }>;
  };
}
interface DocumentedOperation {
  operationId?: string;
  summary?: string;
  security?: Record<string, string[]>[];
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
}

let deps: TestDeps;
let server: RunningServer;
let document: ServedDocument;
beforeAll(async () => {
  deps = await createTestDeps();
  server = await startServer(deps);
  const answer = await fetch(`${server.url}/openapi/v1/openapi.json`);
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  document = await answer.json();
});
afterAll(async () => {
  await server.close();
  await deps.close();
});

/** Every operation the document describes, with its method and path. */
function documentedOperations() {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const op = item?.[method];
      return op ? [{ path, method, op }] : [];
    }),
  );
}

describe('the document', () => {
  test('is valid OpenAPI 3.1 (swagger-parser), without a token', async () => {
    expect(document.openapi).toBe('3.1.0');
    // validate() dereferences what it is given: a copy keeps `document` as served.
    const copy = structuredClone(document) as unknown as Parameters<typeof SwaggerParser.validate>[0];
    await expect(SwaggerParser.validate(copy)).resolves.toBeTruthy();
  });

  test('describes each operation once, with an id, a summary, its scope and its refusals', () => {
    const documented = documentedOperations();
    expect(documented.map((d) => d.op.operationId).sort()).toEqual(
      OPERATIONS.map((op) => op.operationId).sort(),
    );
    for (const { path, method, op } of documented) {
      const where = `${method.toUpperCase()} ${path}`;
      const declared = OPERATIONS.find((o) => o.operationId === op.operationId);
      expect([declared?.method, declared?.path], where).toEqual([method, path]);
      expect(op.summary?.trim(), where).toBeTruthy();
      expect(op.security, where).toEqual([{ bearer: [declared?.scope] }]);
      expect(API_SCOPES, where).toContain(declared?.scope);
      const statuses = Object.keys(op.responses ?? {});
      expect(statuses, where).toEqual(expect.arrayContaining(['401', '422', '429']));
      expect(
        statuses.some((s) => s.startsWith('2')),
        where,
      ).toBe(true);
      if (path.includes('{')) expect(statuses, where).toContain('404');
      for (const status of ['401', '422', '429']) {
        const refusal = op.responses?.[status];
        expect(refusal?.description, `${where} ${status}`).toBeTruthy();
        expect(refusal?.content?.['application/json']?.schema, `${where} ${status}`).toEqual({
          $ref: '#/components/schemas/Failure',
        });
      }
    }
    expect(document.components?.securitySchemes?.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  test('the numbers a caller reads are described with the values the API sends', () => {
    const schemas = document.components?.schemas ?? {};
    const described = (schema: string, field: string) =>
      (schemas[schema]?.properties?.[field]?.description?.match(/\d+/g) ?? []).map(Number).sort();
    const values = (enumeration: Record<string, number>) => Object.values(enumeration).sort();
    expect(described('Note', 'flow')).toEqual(values(Flow));
    expect(described('Note', 'clipStatus')).toEqual(values(ClipStatus));
    expect(described('Highlight', 'coreType')).toEqual(values(CoreType));
  });

  test('test/openapi/schema.d.ts is what `npm run openapi:types` makes of it now', async () => {
    expect(fs.readFileSync(SCHEMA_FILE, 'utf8'), 'run `npm run openapi:types`').toBe(await generatedTypes());
  });
});

describe('the docs page', () => {
  test('is served with its script and stylesheet, and names no other origin', async () => {
    const redirect = await fetch(`${server.url}/openapi/docs`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/openapi/docs/');
    const page = await fetch(`${server.url}/openapi/docs/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).not.toMatch(/(https?:)?\/\/[a-z0-9]/i);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
    expect(assets).toEqual(
      expect.arrayContaining(['assets/swagger-ui.css', 'assets/swagger-ui-bundle.js', 'start.js']),
    );
    for (const asset of assets) {
      const answer = await fetch(new URL(asset, `${server.url}/openapi/docs/`));
      expect(answer.status, asset).toBe(200);
      const type = answer.headers.get('content-type') ?? '';
      if (asset.endsWith('.js')) expect(type, asset).toMatch(/^(text|application)\/javascript/);
      if (asset.endsWith('.css')) expect(type, asset).toMatch(/^text\/css/);
      if (asset === 'start.js') expect(await answer.text()).not.toMatch(/https?:\/\//);
    }
  });

  test('renders every operation in a browser, asking nothing of another origin', async () => {
    // A host name that is not loopback: Swagger UI treats localhost and 127.0.0.1 as special
    // (it skips its online validator there), and a user's server is neither.
    const origin = 'http://docs.margin.test';
    const context = await (await sharedBrowser()).newContext();
    const elsewhere: string[] = [];
    await context.route('**/*', async (route) => {
      const url = new URL(route.request().url());
      if (url.origin !== origin) {
        elsewhere.push(url.href);
        return route.abort();
      }
      const response = await route.fetch({ url: `${server.url}${url.pathname}${url.search}` });
      return route.fulfill({ response });
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      // Chromium's note that COOP needs HTTPS: this test's made-up origin is plain HTTP.
      if (message.type() === 'error' && !message.text().startsWith('The Cross-Origin-Opener-Policy'))
        errors.push(message.text());
    });
    try {
      await page.goto(`${origin}/openapi/docs/`);
      await expect.poll(() => page.locator('.opblock').count()).toBe(OPERATIONS.length);
      await expect(page.locator('.info .title').textContent()).resolves.toContain('Margin API');
      // Images load after the render: give any badge a moment to ask for itself.
      await page.waitForLoadState('networkidle');
      expect(elsewhere).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      // A request still being forwarded (the icon) must not outlive the context unhandled.
      await context.unrouteAll({ behavior: 'ignoreErrors' });
      await context.close();
    }
  });
});
