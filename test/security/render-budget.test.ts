import { monitorEventLoopDelay } from 'node:perf_hooks';
import superjson from 'superjson';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningWorkers, startWorkers } from '../../jobs/workers.ts';
import { Integration, NoteContent } from '../../server/db/entities/index.ts';
import { createSyncToken } from '../../server/domain/sync/tokens.ts';
import { SortOrder } from '../../src/enums.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { type RunningServer, startServer } from '../helpers/http.ts';
import { OPERATOR_AUTHORIZATION, TEST_METRICS_TOKEN } from '../helpers/operator.ts';
import { type FlomoServer, startFlomo } from '../helpers/push-servers.ts';
import { highlightBody, noteWithBody } from '../helpers/sync.ts';
import { signedInUser } from '../helpers/users.ts';

// Finding 1 of the hardening review: one free user's templates could hold the event loop for
// seconds (a sync download rendered 21 notes of ~0.3 s each on it). Rendering now runs in the
// compute pool on a budget per request; these tests run hostile templates through every render
// path and watch what another user, and the event loop, see meanwhile.

/**
 * A few tenths of a second of LiquidJS work per render, well under its 5 s per-render limit even
 * on a loaded machine; NOTES of them are several times one request's 3 s even on a fast one (at
 * 30,000 rounds, a fast machine rendered all 40 within the budget).
 */
const SLOW = '{% for i in (1..100000) %}{% assign x = i %}{% endfor %}';
const NOTES = 40;

let deps: TestDeps;
let workers: RunningWorkers;
let server: RunningServer;
let flomo: FlomoServer;
let hostile: Awaited<ReturnType<typeof hostileUser>>;
beforeAll(async () => {
  flomo = await startFlomo();
  deps = await createTestDeps({
    FETCH_ALLOW_TARGETS: flomo.target,
    FLOMO_API_ORIGIN: flomo.origin,
    PUSH_DEBOUNCE_MS: '200',
    METRICS_TOKEN: TEST_METRICS_TOKEN,
  });
  workers = await startWorkers(deps);
  server = await startServer(deps);
  hostile = await hostileUser();
});
afterAll(async () => {
  await server.close();
  await workers.close();
  await deps.close();
  await flomo.close();
});

type Signed = Awaited<ReturnType<typeof signedInUser>>;

/** A user with NOTES notes (three highlighted), Obsidian and flomo templates that are slow on every note, and a sync token. */
async function hostileUser() {
  const user = await signedInUser(deps);
  const notes = [];
  for (let i = 0; i < NOTES; i++) {
    const note = await noteWithBody(deps, user, `Note ${i}`);
    // A few highlights for flomo, which posts them a second apart.
    if (i < 3) await highlightBody(user, note.id);
    notes.push(note);
  }
  // Connected once the highlights are made, with the default template: one first push, not one per highlight.
  await user.caller.sync.connectPush({ app: 'flomo', credentials: { webhookUrl: flomo.newWebhook() } });
  const em = deps.orm.em.fork();
  const { token } = await createSyncToken(em, user.user, { app: 'obsidian' });
  // Saved straight in the rows: a save trial-renders the samples, which these would fail.
  for (const [app, templates] of [
    ['obsidian', { note: `${SLOW}{{ title }}` }],
    ['flomo', { highlight: `${SLOW}{{ highlight.text }}` }],
  ] as const) {
    const integration = await em.findOneOrFail(Integration, { user: user.user.id, app });
    integration.settings = { ...integration.settings, templates };
  }
  // A page whose article turns into Markdown slowly: deeply nested and long.
  const content = await em.findOneOrFail(NoteContent, { note: notes[0]!.id });
  content.contentHtml = '<div><p><b>bold</b> <i>it</i> <a href="https://x.test/">l</a></p></div>'.repeat(
    20_000,
  );
  await em.flush();
  return { user, token, notes };
}

function percentilesOf(latencies: number[]): { p50: number; p99: number } {
  const sorted = [...latencies].sort((x, y) => x - y);
  const at = (share: number) => sorted[Math.ceil(sorted.length * share) - 1]!;
  return { p50: at(0.5), p99: at(0.99) };
}

async function syncDownload(token: string) {
  const res = await fetch(`${server.url}/api/sync/v1/download`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ clientId: 'c_hostile_plugin', cursor: null, noteIds: [] }),
  });
  return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string } } };
}

function listUrl(): string {
  const input = { nav: 'all', sort: SortOrder.newestFirst, limit: 50, direction: 'forward' };
  return `${server.url}/trpc/notes.list?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: superjson.serialize(input) }))}`;
}

describe('render budget', () => {
  test('a sync download that would render past its budget stops at it with a translated error', async () => {
    const { status, body } = await syncDownload(hostile.token);
    expect(status).toBe(422);
    expect(body.error?.code).toBe('template_failed');
    expect(body.error?.message).toMatch(/longer than the 3 s one request may spend rendering/);
  });

  test('a template save and a preview that render too long are refused with a clear error; nothing is saved', async () => {
    const user = await signedInUser(deps);
    const templates = { note: `{% for i in (1..30) %}${SLOW}{% endfor %}{{ title }}` };
    const refusal = {
      cause: { messageKey: expect.stringMatching(/^errors\.(renderBudgetExceeded|templateInvalid)$/) },
    };
    await expect(user.caller.sync.preview({ app: 'obsidian', templates })).rejects.toMatchObject(refusal);
    await expect(
      user.caller.sync.updateSettings({ app: 'obsidian', settings: { templates } }),
    ).rejects.toMatchObject(refusal);
    const saved = await user.caller.sync.integration({ app: 'obsidian' });
    expect(saved.settings.templates.note).toBeUndefined();
  });

  test("while one user runs hostile templates through every render path, another user's notes.list p99 stays under 100 ms", async () => {
    const reader: Signed = await signedInUser(deps);
    for (let i = 0; i < 30; i++) await noteWithBody(deps, reader, `Reading ${i}`);
    const cookie = `logininfo=${reader.token}`;
    /** The latencies of `count` notes.list calls over HTTP, one after another, with their p50 and p99. */
    const listLatencies = async (count: number) => {
      const all: number[] = [];
      for (let i = 0; i < count; i++) {
        const started = performance.now();
        const res = await fetch(listUrl(), { headers: { Cookie: cookie } });
        expect(res.status).toBe(200);
        await res.arrayBuffer();
        all.push(performance.now() - started);
      }
      return { all, ...percentilesOf(all) };
    };
    // Warm (the first answers load code and plan statements), then the machine's own pace.
    await listLatencies(5);
    const quiet = await listLatencies(200);

    let attacking = true;
    let pushes = 0;
    const outcomes: string[] = [];
    const loop = async (name: string, once: () => Promise<unknown>) => {
      while (attacking) {
        try {
          const said = await once();
          outcomes.push(`${name}: ${typeof said === 'string' ? said : 'ok'}`);
        } catch (error) {
          outcomes.push(
            `${name}: ${(error as { cause?: { messageKey?: string } }).cause?.messageKey ?? error}`,
          );
        }
      }
    };
    const hostileCookie = `logininfo=${hostile.user.token}`;
    const attacks = [
      loop('download', async () => {
        const { status, body } = await syncDownload(hostile.token);
        if (status >= 500) throw new Error(`download ${status}`);
        return body.error?.message;
      }),
      loop('preview', () => hostile.user.caller.sync.preview({ app: 'obsidian' })),
      loop('save', () =>
        hostile.user.caller.sync.updateSettings({ app: 'obsidian', settings: { templates: { note: SLOW } } }),
      ),
      loop('zip', async () => {
        const res = await fetch(`${server.url}/api/export/markdown.zip`, {
          headers: { Cookie: hostileCookie },
        });
        await res.arrayBuffer().catch(() => null);
      }),
      loop('markdown', () =>
        hostile.user.caller.notes.export({ id: hostile.notes[0]!.id, format: 'markdown' }),
      ),
      loop('push', async () => {
        // A few highlights, each a push that renders with the slow template (flomo posts a second apart).
        if (pushes++ < 4) await highlightBody(hostile.user, hostile.notes[1]!.id, `again ${pushes}`);
        await new Promise((resolve) => setTimeout(resolve, 300));
      }),
    ];

    // Measured once the pool is busy with the hostile user's work.
    await expect.poll(() => deps.compute.load.running).toBeGreaterThan(0);
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    // 300 answers, each noting whether the pool was busy with the hostile work as it was sent.
    const samples: number[] = [];
    let busy = 0;
    while (samples.length < 300) {
      if (deps.compute.load.running > 0) busy++;
      samples.push(...(await listLatencies(1)).all);
    }
    const hostileLoad = percentilesOf(samples);
    delay.disable();
    attacking = false;
    await Promise.all(attacks);

    const ms = (n: number) => `${n.toFixed(1)} ms`;
    const summary = `notes.list quiet p50 ${ms(quiet.p50)}, p99 ${ms(quiet.p99)}; hostile p50 ${ms(hostileLoad.p50)}, p99 ${ms(hostileLoad.p99)}; event loop delay p99 ${ms(delay.percentile(99) / 1e6)}, max ${ms(delay.max / 1e6)}`;
    console.log(summary);
    // 100 ms on a machine that answers the list in well under that when quiet; a machine loaded
    // by other work (CI runs suites side by side) is held to twice its own quiet p99 instead.
    expect(hostileLoad.p99, summary).toBeLessThan(Math.max(100, 2 * quiet.p99));
    // The hostile work was under way all along, and refused with the budget's messages, never a 500.
    expect(busy / samples.length, summary).toBeGreaterThan(0.9);
    expect(outcomes.filter((o) => /download \d|INTERNAL|generic/.test(o))).toEqual([]);

    // The operator sees it: the event loop's delay, and the pool's tasks.
    const metrics = await (
      await fetch(`${server.url}/metrics`, { headers: { Authorization: OPERATOR_AUTHORIZATION } })
    ).text();
    expect(metrics).toMatch(/^event_loop_delay_seconds_count [1-9]/m);
    expect(metrics).toMatch(/^compute_tasks_total\{task="renderNotes",outcome="\w+"\} [1-9]/m);
    expect(metrics).toMatch(/^compute_thread_seconds_total\{task="renderNotes"\} 0?\.?0*[1-9]/m);
  }, 300_000);
});
