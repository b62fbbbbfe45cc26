import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Operation } from '../../server/openapi/operation.ts';
import { OPERATIONS } from '../../server/openapi/operations/index.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { type RunningServer, startServer } from '../helpers/http.ts';
import { badInputs, textSpoils } from './bad-inputs.ts';
import {
  type Answer,
  type AnySample,
  answerBeforeBody,
  bearer,
  bodyOfSize,
  eachLimited,
  expectNoFailures,
  extensionHeaders,
  type FrontUser,
  frontUser,
  generousMembershipConfig,
  MALFORMED_AUTHORIZATIONS,
  mayBeServed,
  type ProbeClass,
  REST_SAMPLES,
  restRequest,
  restSample,
  runProbes,
  type SentProbe,
  secretsOf,
  send,
  Tally,
} from './fronts-inventory.ts';
import { fingerprint } from './router-inventory.ts';

// The Open API walked operation by operation from its real list: without a token, with a
// malformed or dead one, with another kind's (a sync token, the session cookie, the extension's
// outside its reach) or a plan without the API, with another user's token and the owner's ids,
// with every field of a valid request spoiled, and with oversize bodies. Nothing answers 5xx or
// shows internals, and no refused request changes a row.

let deps: TestDeps;
let server: RunningServer;
let owner: FrontUser;
let other: FrontUser;
/** A PRO account's tokens on an account now free: the plan's gate, whatever the token kind. */
let lapsed: FrontUser;
const tally = new Tally();
/** The owner's sample of each operation, and what preparing them handed the owner (an upload key, cursors). */
const samples = new Map<string, AnySample>();
const prepared = new Set<string>();

/** Over the largest body any operation takes (12 MB). */
const OVERSIZE = 13 * 1024 * 1024;

beforeAll(async () => {
  deps = await createTestDeps({ MEMBERSHIP: 'on', MEMBERSHIP_CONFIG: generousMembershipConfig() });
  server = await startServer(deps);
  owner = await frontUser(deps, 'ownersecret');
  other = await frontUser(deps, 'othersown');
  lapsed = await frontUser(deps, 'lapsedone', 'free');
  for (const op of OPERATIONS)
    samples.set(op.operationId, await restSample(op.operationId, contextOf(owner, prepared)));
}, 120_000);
afterAll(async () => {
  console.log(tally.report('Open API (/openapi/v1)', 'operations'));
  await server?.close();
  await deps?.close();
});

/** A sample's context for `user`; every string the preparing calls answered lands in `handed`. */
function contextOf(user: FrontUser, handed = new Set<string>()) {
  return {
    owner: user,
    call: async (method: string, route: string, body?: unknown) => {
      const answer = await send(
        server.url,
        restRequest({ method, path: route }, { body }, bearer(user.credentials.api)),
      );
      for (const value of stringsIn(answer.json?.data)) if (value.length >= 16) handed.add(value);
      return answer;
    },
  };
}

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

const sampleOf = (op: Operation) => samples.get(op.operationId) as AnySample;
const target = (op: Operation) => `${op.operationId} (${op.method.toUpperCase()} ${op.path})`;

/** A refusal in the Open API's envelope, with a translated message. */
function refusedWith(answer: Answer, statuses: readonly number[]): string | null {
  if (!statuses.includes(answer.status)) return `expected ${statuses.join(' or ')}`;
  const { code, data, message } = answer.json ?? {};
  if (code !== answer.status || data !== null) return 'not the envelope of a refusal';
  if (typeof message !== 'string' || !message || /^errors\./.test(message)) return 'no translated message';
  return null;
}

const probe = (
  op: Operation,
  kind: ProbeClass,
  what: string,
  headers: Record<string, string>,
  check: SentProbe['check'],
  sample: AnySample = sampleOf(op),
  body?: string,
): SentProbe => ({ target: target(op), kind, what, request: restRequest(op, sample, headers, body), check });

describe('the Open API', () => {
  test('the inventory is the real operation list, each with a sample that fills every query field', () => {
    expect(Object.keys(REST_SAMPLES).sort()).toEqual(OPERATIONS.map((op) => op.operationId).sort());
    expect(OPERATIONS.length).toBeGreaterThan(25);
    tally.targets = OPERATIONS.length;
  });

  test('each sample is served for its owner, so the probes below spoil valid requests', async () => {
    const wrong: string[] = [];
    // A user of its own per operation: a delete or a spent upload must not decide the next one.
    await eachLimited([...OPERATIONS.entries()], 4, async ([i, op]) => {
      const user = await frontUser(deps, `sampled${i}`);
      const sample = await restSample(op.operationId, contextOf(user));
      const answer = await send(server.url, restRequest(op, sample, bearer(user.credentials.api)));
      if (answer.status !== (op.status ?? 200) || answer.json?.code !== 1)
        wrong.push(`${target(op)}: ${answer.status} ${answer.text.slice(0, 300)}`);
    });
    expect(wrong).toEqual([]);
  }, 120_000);

  test('without a token, with a malformed, dead or other kind of token, or a plan without the API: 401 or 403, nothing changes', async () => {
    const unauthorized = (a: Answer) => refusedWith(a, [401]);
    const forbidden = (a: Answer) => refusedWith(a, [403]);
    const { credentials } = owner;
    const probes = OPERATIONS.flatMap((op) => [
      probe(op, 'no token', 'no Authorization', {}, unauthorized),
      ...MALFORMED_AUTHORIZATIONS.map((value) =>
        probe(
          op,
          'malformed token',
          `Authorization: ${value.slice(0, 24)}`,
          { Authorization: value },
          unauthorized,
        ),
      ),
      probe(op, 'malformed token', 'a revoked API token', bearer(credentials.revokedApi), unauthorized),
      probe(
        op,
        'malformed token',
        'a revoked sync token',
        extensionHeaders(credentials.revokedSync),
        unauthorized,
      ),
      probe(
        op,
        "another kind's token",
        "a note tool's sync token",
        bearer(credentials.obsidian),
        unauthorized,
      ),
      probe(
        op,
        "another kind's token",
        'the session cookie',
        { Cookie: `logininfo=${credentials.session}` },
        unauthorized,
      ),
      probe(
        op,
        "another kind's token",
        'the session token as a bearer',
        bearer(credentials.session),
        unauthorized,
      ),
      ...(op.extension
        ? []
        : [
            probe(
              op,
              "another kind's token",
              "the extension's token",
              extensionHeaders(credentials.extension),
              forbidden,
            ),
          ]),
      probe(
        op,
        'plan without the feature',
        'a free account’s API token',
        bearer(lapsed.credentials.api),
        forbidden,
      ),
    ]);
    expectNoFailures(await runProbes(deps, server.url, probes, tally));
  }, 120_000);

  test("another user's token with the owner's ids: 404, or an answer with nothing of the owner's; nothing changes", async () => {
    const ownRows = [
      ...Object.values(owner.rows).filter((v): v is string => typeof v === 'string' && v.length >= 16),
      ...owner.rows.passageIds,
      ...prepared,
    ];
    const secrets = secretsOf(owner);
    const probes = OPERATIONS.flatMap((op) => {
      const sample = sampleOf(op);
      const written = JSON.stringify(sample);
      const named = ownRows.filter((id) => written.includes(id));
      // A write naming nothing of the owner's is the other user's own: the sample test has it.
      if (!named.length && op.method !== 'get') return [];
      const check = (a: Answer) => {
        const leaked = secrets.find((secret) => a.text.includes(secret));
        if (leaked) return `leaks ${leaked}`;
        if (op.method !== 'get' || a.status >= 300) return refusedWith(a, [404]);
        return a.status === 200 ? null : 'expected 200 or 404';
      };
      return [
        probe(
          op,
          "another user's ids",
          named.length ? `names ${named.length} of the owner's` : 'reads its own',
          bearer(other.credentials.api),
          check,
        ),
      ];
    });
    expect(probes.length).toBeGreaterThan(20);
    expectNoFailures(await runProbes(deps, server.url, probes, tally));
  }, 120_000);

  test('every field of every sample spoiled: 4xx with a translated message, never 5xx, nothing changes', async () => {
    const invalid = (a: Answer) =>
      [401, 403, 429].includes(a.status)
        ? 'refused before the input was read'
        : refusedWith(a, [400, 404, 413, 422]);
    const headers = bearer(owner.credentials.api);
    const probes = OPERATIONS.flatMap((op) => {
      const sample = sampleOf(op);
      const out: SentProbe[] = [];
      const variant = (kind: ProbeClass, what: string, spoiled: AnySample, body?: string) =>
        out.push(probe(op, kind, what, headers, invalid, spoiled, body));
      for (const [key, value] of Object.entries(sample.path ?? {})) {
        for (const spoil of textSpoils(key, value)) {
          variant(spoil.kind, `path ${key}`, { ...sample, path: { ...sample.path, [key]: spoil.value } });
        }
      }
      for (const [key, value] of Object.entries(sample.query ?? {})) {
        const spoils = [
          ...textSpoils(key, value as string | number),
          { kind: 'wrong type' as const, value: [value, value] },
        ];
        for (const spoil of spoils) {
          const spoiled = probe(op, spoil.kind, `query ${key}`, headers, invalid, {
            ...sample,
            query: { ...sample.query, [key]: spoil.value },
          });
          // A query cannot carry a lone surrogate: its bytes arrive as replacement characters, a usable text.
          out.push(LONE_SURROGATE.test(String(spoil.value)) ? mayBeServed(spoiled) : spoiled);
        }
      }
      if (sample.body !== undefined) {
        // A long string is a valid value of many body fields; the megabyte goes past every one's limit.
        for (const bad of badInputs(sample.body).filter((v) => v.kind !== 'long string')) {
          const at = `body ${bad.at}`;
          const spoiled = probe(op, bad.kind, at, headers, invalid, { ...sample, body: bad.input });
          const megabyteTaken =
            bad.kind === '1 MB string' && MAY_TAKE_A_MEGABYTE.has(`${op.operationId} ${at}`);
          out.push(megabyteTaken ? mayBeServed(spoiled) : spoiled);
        }
        for (const text of ['{"url":', '{"a": nul}', '\u0000', '[[[[']) {
          variant('malformed JSON', JSON.stringify(text), sample, text);
        }
      }
      return out;
    });
    expectNoFailures(await runProbes(deps, server.url, probes, tally));
  }, 240_000);

  test('an oversize body: refused before the token is checked (401 or 413), 413 with a token where the operation takes a body; nothing changes', async () => {
    const body = bodyOfSize(OVERSIZE);
    const tooLarge = (a: Answer) => refusedWith(a, [413]);
    const probes = OPERATIONS.flatMap((op) => [
      probe(op, 'oversize body', 'no token', {}, (a) => refusedWith(a, [401, 413]), sampleOf(op), body),
      // An operation that takes no body never reads one: it is served or refused as without it.
      ...(op.body
        ? [probe(op, 'oversize body', 'a token', bearer(owner.credentials.api), tooLarge, sampleOf(op), body)]
        : []),
    ]);
    expectNoFailures(await runProbes(deps, server.url, probes, tally));
  }, 120_000);

  test('a body under the limit is not read before the token is checked: 401 while it is still being sent', async () => {
    const before = await fingerprint(deps);
    // All at once: a server that reads first keeps every one waiting, and the bound fails them together.
    const answers = await Promise.all(
      OPERATIONS.map(async (op) => {
        const { method, path, headers } = restRequest(op, sampleOf(op), {});
        const answer = await answerBeforeBody(
          server.url,
          { method, path, headers },
          11 * 1024 * 1024,
          64 * 1024,
          10_000,
        );
        tally.count('oversize body before auth', typeof answer === 'string' ? NO_ANSWER : answer);
        return { op, answer };
      }),
    );
    const wrong = answers
      .map(({ op, answer }) => {
        if (typeof answer === 'string') return `${target(op)}: ${answer}`;
        const why = refusedWith(answer, [401]);
        return why && `${target(op)}: ${why} → ${answer.status} ${answer.text.slice(0, 120)}`;
      })
      .filter(Boolean);
    expect(wrong).toEqual([]);
    expect(await fingerprint(deps)).toEqual(before);
  }, 60_000);
});

const NO_ANSWER: Answer = { status: 0, text: '', json: null };

const LONE_SURROGATE = /\p{Cs}/u;

/** Where a megabyte is a valid value: the HTML of a page sent to be saved (up to 5 MB). */
const MAY_TAKE_A_MEGABYTE = new Set(['createNote body html']);
