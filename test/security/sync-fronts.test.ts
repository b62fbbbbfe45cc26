import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { syncRoutes } from '../../server/sync/index.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { type RunningServer, startServer } from '../helpers/http.ts';
import { BAD_CURSORS, badInputs, textSpoils } from './bad-inputs.ts';
import {
  type Answer,
  bearer,
  bodyOfSize,
  eachLimited,
  expectNoFailures,
  expressRoutes,
  extensionHeaders,
  type FrontUser,
  forgedSyncCursors,
  frontUser,
  MALFORMED_AUTHORIZATIONS,
  mayBeServed,
  type ProbeClass,
  PUBLIC_SYNC_ROUTES,
  type RouteInfo,
  randomClientId,
  runProbes,
  type SentProbe,
  SYNC_SAMPLES,
  type SyncClients,
  type SyncSample,
  type SyncSampleContext,
  secretsOf,
  send,
  syncRequest,
  Tally,
} from './fronts-inventory.ts';

// The sync fronts walked route by route, from the routes the Express router really has: Margin's
// /api/sync/v1 and the seed's /apix/… and /page/auth/… paths. Every route without a token, with
// a malformed or dead one, with another kind's (an API token, the extension's, a session, a
// token of another note tool), with another user's token and the owner's notes and cursors,
// with every field of a valid call spoiled (forged cursors with out-of-range fields among them),
// and with oversize bodies. Nothing answers 5xx or shows internals; no refusal changes a row.

let deps: TestDeps;
let server: RunningServer;
let owner: FrontUser;
let other: FrontUser;
const ownerClients: SyncClients = { v1: randomClientId(), seed: randomClientId() };
const otherClients: SyncClients = { v1: randomClientId(), seed: randomClientId() };
/** The seed's paths answer refusals with HTTP 200 and a code: counted by that code. */
const tally = new Tally((a) =>
  typeof a.json?.code === 'number' ? `${a.status} (seed ${a.json.code})` : String(a.status),
);
let routes: RouteInfo[];
const samples = new Map<string, SyncSample>();

/**
 * What the seed's calls take and never use, so a value no other field would take is served: the
 * plugin's version (`v`, and the query), and the cursor init is sent (it answers the integration's own).
 */
function unusedBySeed(route: RouteInfo, field: string): boolean {
  if (!isSeed(route)) return false;
  return field === 'v' || (route.path.endsWith('/sync/init') && field === 'lastCursor2');
}

/** The sync cursors a call's body names. */
const cursorsIn = (body: unknown) =>
  Object.entries(body as object)
    .filter(([field, value]) => /cursor/i.test(field) && typeof value === 'string' && value)
    .map(([, value]) => value as string);

const nameOf = (route: RouteInfo) => `${route.method} ${route.path}`;
const isSeed = (route: RouteInfo) => !route.path.startsWith('/api/sync/v1');

beforeAll(async () => {
  deps = await createTestDeps();
  server = await startServer(deps);
  routes = expressRoutes(syncRoutes(deps));
  owner = await frontUser(deps, 'ownersecret');
  other = await frontUser(deps, 'othersown');
  // The other user has synced too: their integrations exist, as an attacker's would.
  for (const route of routes) {
    const name = nameOf(route);
    if (name.endsWith('/init')) await callAs(route, await sampleFor(name, other, otherClients));
  }
  for (const route of routes) samples.set(nameOf(route), await sampleFor(nameOf(route), owner, ownerClients));
}, 120_000);
afterAll(async () => {
  console.log(tally.report('Sync (/api/sync/v1, /apix/openapi/wucai/sync, /page/auth/openapi)', 'routes'));
  await server?.close();
  await deps?.close();
});

function callAs(route: Pick<RouteInfo, 'path'> & { method?: string }, sample: SyncSample): Promise<Answer> {
  const request = syncRequest(
    { method: route.method ?? 'POST', path: route.path },
    sample,
    JSON.stringify(sample.body),
  );
  return send(server.url, request);
}

function sampleFor(name: string, user: FrontUser, clients: SyncClients): Promise<SyncSample> {
  const build = SYNC_SAMPLES[name];
  if (!build) throw new Error(`no sample for ${name}`);
  const ctx: SyncSampleContext = { owner: user, clients, call: (path, sample) => callAs({ path }, sample) };
  return build(ctx);
}

const sampleOf = (route: RouteInfo) => samples.get(nameOf(route)) as SyncSample;

/** A refusal as the route's front writes it: the seed's envelope (HTTP 200 but for 409), or Margin's error body. */
function refusedWith(
  route: RouteInfo,
  answer: Answer,
  v1Statuses: readonly number[],
  seedCodes: readonly number[],
) {
  if (isSeed(route)) {
    const { code, data, message } = answer.json ?? {};
    if (!seedCodes.includes(code)) return `expected the seed's code ${seedCodes.join(' or ')}`;
    if (data !== null || typeof message !== 'string' || !message || /^errors\./.test(message))
      return 'not a refusal with a translated message';
    return null;
  }
  if (!v1Statuses.includes(answer.status)) return `expected ${v1Statuses.join(' or ')}`;
  const message = answer.json?.error?.message;
  if (typeof message !== 'string' || !message || /^errors\./.test(message)) return 'no translated message';
  return null;
}

/** The sample sent with `auth` in place of its own token (the plugin's other headers kept). */
function withAuth(sample: SyncSample, auth: Record<string, string>): SyncSample {
  const { Authorization: _own, ...rest } = sample.headers;
  return { ...sample, headers: { ...rest, ...auth } };
}

function probe(
  route: RouteInfo,
  kind: ProbeClass,
  what: string,
  sample: SyncSample,
  check: SentProbe['check'],
  body: string | undefined = JSON.stringify(sample.body),
): SentProbe {
  return { target: nameOf(route), kind, what, request: syncRequest(route, sample, body), check };
}

describe('the sync fronts', () => {
  test('the routes are found from the router, each with a sample; the device-flow polls are the only public ones', () => {
    expect(routes.map(nameOf).sort()).toEqual(Object.keys(SYNC_SAMPLES).sort());
    expect(routes.length).toBeGreaterThanOrEqual(12);
    for (const name of PUBLIC_SYNC_ROUTES) expect(routes.map(nameOf)).toContain(name);
    tally.targets = routes.length;
  });

  test('each sample is served for its owner, so the probes below spoil valid calls', async () => {
    const wrong: string[] = [];
    await eachLimited([...routes.entries()], 4, async ([i, route]) => {
      const user = await frontUser(deps, `sampled${i}`);
      const clients = { v1: randomClientId(), seed: randomClientId() };
      const answer = await callAs(route, await sampleFor(nameOf(route), user, clients));
      // The device-flow polls are served by saying the ticket waits for its user.
      const waits = PUBLIC_SYNC_ROUTES.has(nameOf(route));
      const served = isSeed(route)
        ? answer.json?.code === (waits ? 20001 : 1)
        : answer.status === (waits ? 202 : 200);
      if (!served) wrong.push(`${nameOf(route)}: ${answer.status} ${answer.text.slice(0, 300)}`);
    });
    expect(wrong).toEqual([]);
  }, 120_000);

  test('without a token, with a malformed, dead or other kind of token: the invalid-token refusal, nothing changes', async () => {
    const { credentials } = owner;
    const invalidToken = (route: RouteInfo) => (a: Answer) => refusedWith(route, a, [401], [10000]);
    const probes = routes
      .filter((route) => !PUBLIC_SYNC_ROUTES.has(nameOf(route)))
      .flatMap((route) => {
        const sample = sampleOf(route);
        const check = invalidToken(route);
        const as = (kind: ProbeClass, what: string, auth: Record<string, string>) =>
          probe(route, kind, what, withAuth(sample, auth), check);
        return [
          as('no token', 'no Authorization', {}),
          ...[...MALFORMED_AUTHORIZATIONS, `Token msync_${'x'.repeat(43)}`].map((value) =>
            as('malformed token', `Authorization: ${value.slice(0, 24)}`, { Authorization: value }),
          ),
          as('malformed token', 'a revoked sync token', bearer(credentials.revokedSync)),
          as("another kind's token", 'an API token', bearer(credentials.api)),
          as("another kind's token", "the extension's token", extensionHeaders(credentials.extension)),
          as("another kind's token", 'the session cookie', { Cookie: `logininfo=${credentials.session}` }),
          as("another kind's token", 'the session token as a bearer', bearer(credentials.session)),
          // The seed's calls name their tool: Obsidian's paths with Logseq's token.
          ...(isSeed(route)
            ? [
                as("another kind's token", "another note tool's token", {
                  Authorization: `Token ${credentials.logseq}`,
                }),
              ]
            : []),
        ];
      });
    expectNoFailures(await runProbes(deps, server.url, probes, tally));
  }, 120_000);

  test("another user's token with the owner's notes and cursors: not found or an invalid cursor, nothing of the owner's", async () => {
    const secrets = secretsOf(owner);
    const ownersValues = [owner.rows.noteId, ...routes.flatMap((r) => cursorsIn(sampleOf(r).body))];
    const probes = routes
      .filter((route) => !PUBLIC_SYNC_ROUTES.has(nameOf(route)))
      .flatMap((route) => {
        const sample = sampleOf(route);
        const named = Object.entries(sample.body as object)
          .filter(([, value]) => ownersValues.some((owned) => JSON.stringify(value).includes(owned)))
          .map(([field]) => field);
        if (!named.length) return [];
        // The other user's own token and client: only the owner's notes and cursors are borrowed.
        const theirs = isSeed(route)
          ? withAuth(sample, {
              Authorization: `Token ${other.credentials.obsidian}`,
              'Obsidian-Client': otherClients.seed,
            })
          : {
              ...withAuth(sample, bearer(other.credentials.logseq)),
              body: { ...(sample.body as object), clientId: otherClients.v1 },
            };
        const check = (a: Answer) => {
          const leaked = secrets.find((secret) => a.text.includes(secret));
          if (leaked) return `leaks ${leaked}`;
          return refusedWith(route, a, [400, 404], [40001, 40400]);
        };
        const sent = probe(route, "another user's ids", `the owner's ${named.join(', ')}`, theirs, check);
        return [named.every((field) => unusedBySeed(route, field)) ? mayBeServed(sent) : sent];
      });
    expect(probes.length).toBeGreaterThanOrEqual(7);
    expectNoFailures(await runProbes(deps, server.url, probes, tally));
  }, 120_000);

  test('every field of every sample spoiled, forged cursors among them: a 4xx refusal (the seed: its codes), never 5xx, nothing changes', async () => {
    const probes = routes.flatMap((route) => {
      const sample = sampleOf(route);
      const integrationIds = cursorsIn(sample.body).map((cursor) => Number(cursor.split('.')[0]));
      const cursors = [...BAD_CURSORS, ...integrationIds.flatMap(forgedSyncCursors)];
      const out: SentProbe[] = [];
      for (const bad of badInputs(sample.body, { cursors }).filter((v) => v.kind !== 'long string')) {
        // The seed's call names its tool by serviceId: an id of no tool is a token not for it.
        const seedCodes = bad.at === 'serviceId' ? [40000, 10000] : [40000, 40001, 41300];
        const check = (a: Answer) => refusedWith(route, a, [400, 413], seedCodes);
        const sent = probe(route, bad.kind, `body ${bad.at}`, { ...sample, body: bad.input }, check);
        out.push(unusedBySeed(route, bad.at) ? mayBeServed(sent) : sent);
      }
      for (const [key, value] of Object.entries(sample.query ?? {})) {
        for (const spoil of textSpoils(key, value)) {
          const spoiled = probe(
            route,
            spoil.kind,
            `query ${key}`,
            { ...sample, query: { ...sample.query, [key]: spoil.value } },
            (a) => refusedWith(route, a, [400], [40000]),
          );
          // The seed's query is taken and never used: only its length is bounded.
          out.push(spoil.kind === 'long string' ? spoiled : mayBeServed(spoiled));
        }
      }
      for (const text of ['{"clientId":', '{"a": nul}', '\u0000', '[[[[']) {
        out.push(
          probe(
            route,
            'malformed JSON',
            JSON.stringify(text),
            sample,
            (a) => refusedWith(route, a, [400], [40000]),
            text,
          ),
        );
      }
      return out;
    });
    expectNoFailures(await runProbes(deps, server.url, probes, tally));
  }, 240_000);

  test('an oversize body: refused before the token is checked, and with one', async () => {
    const body = bodyOfSize(12 * 1024 * 1024);
    const probes = routes.flatMap((route) => {
      const sample = sampleOf(route);
      return [
        probe(
          route,
          'oversize body',
          'no token',
          withAuth(sample, {}),
          (a) => refusedWith(route, a, [401, 413], [10000, 41300]),
          body,
        ),
        probe(
          route,
          'oversize body',
          'its token',
          sample,
          (a) => refusedWith(route, a, [413], [41300]),
          body,
        ),
      ];
    });
    expectNoFailures(await runProbes(deps, server.url, probes, tally));
  }, 120_000);
});
