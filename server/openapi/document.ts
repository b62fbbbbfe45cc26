import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import { HOUR_MS } from '../../src/constants.ts';
import { API_SCOPES } from '../../src/schemas/api-tokens.ts';
import { IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_TTL_MS } from '../domain/openapi/idempotency.ts';
import { zFailure, zSuccess } from './envelope.ts';
import { OPERATION_BODY_MAX, type Operation } from './operation.ts';
import { OPERATIONS } from './operations/index.ts';

const FAILURES: Record<string, string | ((op: Operation) => string)> = {
  '401': 'No token, or one that is unknown, revoked or expired.',
  '403':
    "The token lacks the operation's scope, is the browser extension's (which reaches only what the " +
    'extension calls), or the account may not use the API.',
  '404': 'Not found, or not yours.',
  '409': 'A request with the same Idempotency-Key is still running.',
  '413': (op) => `The body is over ${op.bodyMax ?? OPERATION_BODY_MAX} bytes.`,
  '422': 'Invalid input: `error.fields` names each refused field.',
  '429': 'Over the rate limit: wait `Retry-After` seconds.',
};

function documented(op: Operation): ZodOpenApiOperationObject {
  const failures = Object.fromEntries(
    Object.entries(FAILURES)
      .filter(([status]) => status !== '404' || op.params || op.refuses?.['404'])
      .filter(([status]) => status !== '409' || op.method === 'post' || op.refuses?.['409'])
      .filter(([status]) => status !== '413' || op.body)
      .map(([status, description]) => [
        status,
        {
          description:
            op.refuses?.[status as '404' | '409'] ??
            (typeof description === 'function' ? description(op) : description),
          content: { 'application/json': { schema: zFailure } },
        },
      ]),
  );
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description && { description: op.description }),
    tags: [op.tag],
    security: [{ bearer: [op.scope] }],
    requestParams: {
      ...(op.params && { path: op.params }),
      ...(op.query && { query: op.query }),
      ...(op.method === 'post' && {
        header: IDEMPOTENCY_HEADER,
      }),
    },
    ...(op.body && {
      requestBody: { required: true, content: { 'application/json': { schema: op.body } } },
    }),
    responses: {
      [String(op.status ?? 200)]: {
        description: 'Success: `code` is 1.',
        content: { 'application/json': { schema: zSuccess(op.response) } },
      },
      ...failures,
    },
  };
}

const IDEMPOTENCY_HEADER = z.object({
  'idempotency-key': z
    .string()
    .max(IDEMPOTENCY_KEY_MAX)
    .optional()
    .meta({
      description:
        'Send the same key when retrying: the first answer comes back, nothing is made twice ' +
        `(kept ${IDEMPOTENCY_TTL_MS / HOUR_MS} hours).`,
    }),
});

let built: ReturnType<typeof createDocument> | undefined;

/** The OpenAPI 3.1 document, generated once from the operations' zod schemas. */
export function openApiDocument(): ReturnType<typeof createDocument> {
  if (built) return built;
  const paths: ZodOpenApiPathsObject = {};
  for (const op of OPERATIONS) {
    paths[op.path] = { ...paths[op.path], [op.method]: documented(op) };
  }
  built = createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Margin API',
      version: '1.0.0',
      description:
        'Your notes, highlights, tags, folders and daily notes. Every answer is `{ code, message, data }`; ' +
        'it succeeded only when `code` is 1. Times are epoch seconds (`createAt`, `updateAt`). Lists are ' +
        'paged: pass `next_cursor` back as `cursor`. Create a token under Settings → API and daily note.',
    },
    servers: [{ url: '/openapi/v1' }],
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: `An API token (\`mapi_…\`). Scopes: ${API_SCOPES.join(', ')}.`,
        },
      },
    },
    paths,
  });
  return built;
}
