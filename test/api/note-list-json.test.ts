import { createTRPCClient, httpBatchLink, httpBatchStreamLink } from '@trpc/client';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import express from 'express';
import superjson from 'superjson';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Note, type User } from '../../server/db/entities/index.ts';
import { listNotesJson } from '../../server/domain/notes/note-list.ts';
import { noteSummaryJsonSql, toNoteSummary } from '../../server/domain/notes/note-view.ts';
import { type AppRouter, appRouter } from '../../server/trpc/app.router.ts';
import { requestContext } from '../../server/trpc/context.ts';
import { jsonTextAnswers } from '../../server/trpc/json-text-answers.ts';
import { LOGIN_COOKIE_KEY } from '../../src/constants.ts';
import { ClipStatus, CoreType, Flow, SortOrder } from '../../src/enums.ts';
import { TRPC_MAX_BATCH_SIZE } from '../../src/http-limits.ts';
import { newId } from '../../src/rules/id.ts';
import { type NoteListInput, zNoteList } from '../../src/schemas/notes.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { listenOnLoopback, type RunningServer, startServer } from '../helpers/http.ts';
import { makeClippedNote } from '../helpers/notes.ts';
import { signedInUser } from '../helpers/users.ts';

// The note list's page is JSON text PostgreSQL writes (noteSummaryJsonSql), and a lone GET of
// notes.list is answered with it by json-text-answers.ts before tRPC. Held here: the text is
// byte for byte JSON.stringify of the TypeScript view of the same notes, and each answer over
// HTTP is byte for byte the one tRPC gives for the same request (and decodes to the same value
// in tRPC's own client), while anything the fast path should not answer reaches tRPC.

let deps: TestDeps;
let app: RunningServer;
/** json-text-answers alone: what it declines is a 599 here. */
let fastOnly: RunningServer;
/** tRPC alone, as app.ts mounts it, without the fast path. */
let trpcOnly: RunningServer;
let owner: Awaited<ReturnType<typeof signedInUser>>;
let stranger: Awaited<ReturnType<typeof signedInUser>>;
let folderId: string;
let strangersFolderId: string;

const DECLINED = 599;

/** Titles JSON must escape, or that only UTF-8 carries, with the field they test in the name. */
const TITLES = [
  'Plain title',
  'He said "yes" \\ and a back\\slash \\"',
  'controls \u0001\u0002\b\t\n\u000b\f\r\u001b\u001f end\u007f',
  '中文标题：阅读与标注「测试」',
  '日本語のタイトル、カタカナ',
  '한국어 제목',
  'emoji 📚🧪👩‍👩‍👧 and a flag 🇯🇵',
  'مرحبا بالعالم — עברית \u200f\u200e mixed',
  'line separators \u2028 and \u2029, </script><!-- & \u00a0nbsp',
  'combining e\u0301 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  '',
];

/** Notes of every state and shape a list row shows, each field somewhere null and somewhere set. */
async function makeVariedNotes(user: User, folder: string): Promise<Note[]> {
  const made: Note[] = [];
  const flows = [Flow.inbox, Flow.later, Flow.shortlist, Flow.archive];
  const statuses = [ClipStatus.done, ClipStatus.failed, ClipStatus.queued, ClipStatus.processing];
  for (const [i, title] of TITLES.entries()) {
    const note = await makeClippedNote(deps, user.id, {
      title,
      text: `text of ${title}`,
      excerpt: i % 2 ? `excerpt "${title}" \\ ${i}` : '',
      tags: i % 3 === 0 ? [] : ['plain', `t"q${i}`, 'back\\slash', '中文', 'emoji🎉', `rtl-שלום-${i}`],
      flow: flows[i % flows.length],
    });
    const status = statuses[i % statuses.length] as ClipStatus;
    await deps.orm.em.fork().nativeUpdate(
      Note,
      { id: note.id },
      {
        clipStatus: status,
        clipError: status === ClipStatus.failed ? 'fetch.timeout' : null,
        siteName: i % 2 ? null : `Site "${i}" 站点`,
        leadImageUrl: i % 3 === 1 ? `https://img.example/${i}.png?a=1&b="2"` : null,
        image: i % 4 === 2 ? `/files/images/${newId()}.webp` : null,
        folder: i % 5 === 1 ? folder : null,
        highlightCount: i === 3 ? 2_147_483_647 : 0,
        trashedAt: i === 4 ? new Date('2026-03-01T00:00:00Z') : null,
      },
    );
    made.push(note);
  }
  // Real highlights on one note (the count the list shows is kept by the highlight service).
  const highlighted = made[1] as Note;
  for (const text of ['first "passage"', 'second 段落']) {
    await owner.caller.highlights.create({
      id: newId(),
      noteId: highlighted.id,
      coreType: CoreType.textNote,
      text,
    });
  }
  // Times at the millisecond (as the app writes them), at the epoch, and equal sort keys (the id
  // decides). Times finer than a millisecond and before 1970 are in the stranger's note, for the
  // rows' JSON only: cursors carry milliseconds and refuse years before 1970.
  const [micro, old, twinA, twinB] = made;
  const em = deps.orm.em.fork();
  await em.execute(
    `update note set created_at = '2026-02-03 04:05:06.789+00',
    updated_at = '2026-02-03 04:05:06.001+00' where id = ?`,
    [micro?.id],
  );
  await em.execute(
    `update note set created_at = '1970-01-01 00:00:00.001+00', updated_at = '1970-01-01 00:00:01+00'
    where id = ?`,
    [old?.id],
  );
  await em.execute(
    `update note set created_at = '2026-02-10 00:00:00+00', updated_at = '2026-02-10 00:00:00+00'
    where id in (?, ?)`,
    [twinA?.id, twinB?.id],
  );
  return made;
}

/** What the TypeScript view writes for a note, read afresh from the database. */
async function viewJson(id: string): Promise<string> {
  const note = await deps.orm.em.fork().findOneOrFail(Note, id);
  return JSON.stringify(toNoteSummary(note));
}

beforeAll(async () => {
  deps = await createTestDeps();
  app = await startServer(deps);
  fastOnly = await listenOnLoopback(
    express().use('/trpc', jsonTextAnswers(deps), (_req, res) => {
      res.status(DECLINED).end('declined');
    }),
  );
  trpcOnly = await listenOnLoopback(
    express().use(
      '/trpc',
      createExpressMiddleware({
        router: appRouter,
        maxBatchSize: TRPC_MAX_BATCH_SIZE,
        createContext: ({ req, res }) => requestContext(deps, req, res),
      }),
    ),
  );
  owner = await signedInUser(deps);
  stranger = await signedInUser(deps);
  folderId = (await owner.caller.folders.create({ name: 'Kept "here"' })).id;
  strangersFolderId = (await stranger.caller.folders.create({ name: 'Theirs' })).id;
  await makeVariedNotes(owner.user, folderId);
  const theirs = await makeClippedNote(deps, stranger.user.id, {
    title: 'not yours',
    text: 'secret',
    tags: ['中文'],
  });
  await deps.orm.em.fork().execute(
    `update note set created_at = '1960-05-01 12:00:00.5+00', updated_at = '1969-12-31 23:59:59.9995+00'
      where id = ?`,
    [theirs.id],
  );
});
afterAll(async () => {
  await Promise.all([app?.close(), fastOnly?.close(), trpcOnly?.close()]);
  await deps?.close();
});

const SORTS = Object.values(SortOrder);

describe('the JSON PostgreSQL writes', () => {
  test('each row is byte for byte JSON.stringify of the TypeScript view of the same note', async () => {
    const rows = await deps.orm.em
      .fork()
      .execute<{ id: string; json: string }[]>(
        `select n.id, ${noteSummaryJsonSql()} as json from note n where n.user_id in (?, ?) order by n.id`,
        [owner.user.id, stranger.user.id],
      );
    expect(rows).toHaveLength(TITLES.length + 1);
    for (const row of rows) expect(row.json).toBe(await viewJson(row.id));
  });

  test('every view, sort and page: the text is the views of its notes, in order, and pages walk the whole list', async () => {
    const em = deps.orm.em.fork();
    const views: NoteListInput['nav'][] = ['all', 'later', 'star', 'archive', 'unarchive', 'notag', 'trash'];
    const inputs: Omit<NoteListInput, 'limit'>[] = [
      ...views.flatMap((nav) => SORTS.map((sort) => ({ nav, sort }))),
      { nav: 'all', sort: SortOrder.newestFirst, tag: '中文' },
      { nav: 'all', sort: SortOrder.oldest, folderId },
      { nav: 'all', sort: SortOrder.newestFirst, q: '段落' },
      { nav: 'all', sort: SortOrder.mostHighlights, q: 'title' },
    ];
    let nonEmpty = 0;
    for (const input of inputs) {
      const whole = await listNotesJson(em, owner.user, { ...input, limit: 100 });
      const parsed = zNoteList.parse(JSON.parse(whole));
      // Schema order and JSON.stringify's spelling: the text is what tRPC would have sent.
      expect(whole).toBe(JSON.stringify(parsed));
      expect(parsed.nextCursor).toBeNull();
      const items = await Promise.all(parsed.items.map((item) => viewJson(item.id)));
      expect(whole).toBe(`{"items":[${items.join(',')}],"nextCursor":null}`);
      if (items.length) nonEmpty++;

      // Pages of 2 (and of 1) with the cursor each page gives: the same rows, in the same order.
      for (const limit of [1, 2]) {
        const walked: string[] = [];
        let cursor: string | null = null;
        for (let pages = 0; pages <= items.length; pages++) {
          const page = zNoteList.parse(
            JSON.parse(await listNotesJson(em, owner.user, { ...input, limit, cursor })),
          );
          expect(page.items.length).toBeLessThanOrEqual(limit);
          walked.push(...page.items.map((item) => item.id));
          cursor = page.nextCursor;
          if (!cursor) break;
          expect(page.items).toHaveLength(limit);
        }
        expect(cursor).toBeNull();
        expect(walked).toEqual(parsed.items.map((item) => item.id));
      }
    }
    expect(nonEmpty).toBeGreaterThan(20);
  });

  test('an empty page is an empty list with no cursor', async () => {
    const { user } = await signedInUser(deps);
    expect(
      await listNotesJson(deps.orm.em.fork(), user, { nav: 'all', sort: SortOrder.newestFirst, limit: 100 }),
    ).toBe('{"items":[],"nextCursor":null}');
  });
});

/** A tRPC GET as the client's batch links send one call. */
function batchUrl(path: string, inputs: Record<string, unknown>): string {
  const serialized = Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, superjson.serialize(v)]));
  return `/trpc/${path}?batch=1&input=${encodeURIComponent(JSON.stringify(serialized))}`;
}

const STREAMED = { 'trpc-accept': 'application/jsonl' };
const HEADER_SETS: Record<string, Record<string, string>> = {
  'the stream link': STREAMED,
  'the batch link': {},
  'Accept: application/jsonl': { accept: 'text/html, application/jsonl;q=0.9' },
  'trpc-accept of another type': { 'trpc-accept': 'application/json', accept: 'application/jsonl' },
};

interface Answer {
  status: number;
  type: string | null;
  vary: string | null;
  body: string;
}

async function get(server: RunningServer, url: string, headers: Record<string, string>): Promise<Answer> {
  const res = await fetch(server.url + url, { headers: { 'accept-encoding': 'identity', ...headers } });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    vary: res.headers.get('vary'),
    body: await res.text(),
  };
}

const cookieOf = (token: string) => ({ cookie: `${LOGIN_COOKIE_KEY}=${token}` });

describe('the answer over HTTP', () => {
  test('a lone GET is answered by the fast path with the bytes tRPC sends, in every wire format', async () => {
    const first = zNoteList.parse(
      JSON.parse(
        await listNotesJson(deps.orm.em.fork(), owner.user, {
          nav: 'all',
          sort: SortOrder.newestFirst,
          limit: 3,
        }),
      ),
    );
    expect(first.nextCursor).not.toBeNull();
    const inputs: Record<string, unknown>[] = [
      // What the client's infinite query sends for the first page and the next.
      { nav: 'all', sort: SortOrder.newestFirst, limit: 100, cursor: undefined, direction: 'forward' },
      { nav: 'all', sort: SortOrder.newestFirst, limit: 3, cursor: first.nextCursor, direction: 'forward' },
      { nav: 'trash', sort: SortOrder.oldest, limit: 100 },
      { nav: 'all', tag: '中文', sort: SortOrder.mostHighlights, limit: 100 },
      { nav: 'all', folderId, limit: 50 },
      { nav: 'all', q: 'title', limit: 100 },
      { nav: 'star', limit: 100 },
    ];
    for (const input of inputs) {
      const url = batchUrl('notes.list', { 0: input });
      for (const [name, headers] of Object.entries(HEADER_SETS)) {
        const sent = { ...headers, ...cookieOf(owner.token) };
        const [fast, trpc, full] = await Promise.all([
          get(fastOnly, url, sent),
          get(trpcOnly, url, sent),
          get(app, url, sent),
        ]);
        const where = `${JSON.stringify(input)} over ${name}`;
        expect(fast.status, where).toBe(200);
        expect(trpc.status, where).toBe(200);
        expect(fast, where).toEqual(trpc);
        expect(full.body, where).toBe(trpc.body);
        expect(full.status, where).toBe(200);
        expect(full.type, where).toBe(trpc.type);
        expect(full.vary?.toLowerCase(), where).toContain('trpc-accept, accept');
      }
    }
  });

  test("tRPC's own client, streamed and batched, decodes the same values as the procedure returns", async () => {
    const clients = [httpBatchStreamLink, httpBatchLink].map((link) =>
      createTRPCClient<AppRouter>({
        links: [link({ url: `${app.url}/trpc`, transformer: superjson, headers: cookieOf(owner.token) })],
      }),
    );
    for (const input of [
      { nav: 'all' as const, sort: SortOrder.newestFirst, limit: 100 },
      { nav: 'all' as const, sort: SortOrder.recentlyUpdated, limit: 4 },
      { nav: 'trash' as const, limit: 100 },
    ]) {
      const expected = await owner.caller.notes.list(input);
      expect(expected.items.length).toBeGreaterThan(0);
      for (const client of clients) {
        const got = await client.notes.list.query(input);
        expect(got).toEqual(expected);
        expect(got.items.map((item) => typeof item.createdAt)).toEqual(expected.items.map(() => 'number'));
      }
    }
  });

  test('everything it should not answer reaches tRPC, and the app answers it as tRPC alone does', async () => {
    const list = { nav: 'all', sort: SortOrder.newestFirst, limit: 100 };
    const cases: { name: string; url: string; headers?: Record<string, string>; message?: string }[] = [
      {
        name: 'no session',
        url: batchUrl('notes.list', { 0: list }),
        headers: {},
        message: 'errors.unauthorized',
      },
      {
        name: 'a session that is not one',
        url: batchUrl('notes.list', { 0: list }),
        headers: cookieOf('x'.repeat(43)),
        message: 'errors.unauthorized',
      },
      {
        name: 'a forged cursor',
        url: batchUrl('notes.list', { 0: { ...list, cursor: 'bm90IGEgY3Vyc29y' } }),
        message: 'errors.invalidCursor',
      },
      {
        name: "another sort's cursor",
        url: batchUrl('notes.list', {
          0: {
            ...list,
            sort: SortOrder.mostHighlights,
            cursor: Buffer.from('["2026-01-01T00:00:00.000Z","x"]').toString('base64url'),
          },
        }),
        message: 'errors.invalidCursor',
      },
      {
        name: "another user's folder",
        url: batchUrl('notes.list', { 0: { ...list, folderId: strangersFolderId } }),
      },
      { name: 'a limit out of range', url: batchUrl('notes.list', { 0: { ...list, limit: 101 } }) },
      { name: 'an unknown view', url: batchUrl('notes.list', { 0: { ...list, nav: 'secret' } }) },
      { name: 'no input', url: '/trpc/notes.list?batch=1' },
      {
        name: 'not a batch',
        url: `/trpc/notes.list?input=${encodeURIComponent(JSON.stringify(superjson.serialize(list)))}`,
      },
      {
        name: 'inputs as an array',
        url: `/trpc/notes.list?batch=1&input=${encodeURIComponent(JSON.stringify([superjson.serialize(list)]))}`,
      },
      { name: 'a second input', url: batchUrl('notes.list', { 0: list, 1: list }) },
      { name: 'two calls', url: batchUrl('notes.list,notes.list', { 0: list, 1: list }) },
      {
        name: 'a GET with a form type',
        url: batchUrl('notes.list', { 0: list }),
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
      },
    ];
    for (const { name, url, headers = cookieOf(owner.token), message } of cases) {
      for (const streamed of [false, true]) {
        const sent = streamed ? { ...headers, ...STREAMED } : headers;
        const where = `${name}${streamed ? ', streamed' : ''}`;
        expect((await get(fastOnly, url, sent)).status, where).toBe(DECLINED);
        const [trpc, full] = await Promise.all([get(trpcOnly, url, sent), get(app, url, sent)]);
        // Streamed, several calls' chunks come in the order the calls end, which varies from one
        // answer to the next: the same chunks, of the same length, in either order.
        const calls = Object.keys(
          JSON.parse(new URL(url, 'http://x').searchParams.get('input') ?? '{}'),
        ).length;
        const comparable = (body: string) => (streamed && calls > 1 ? body.length : body);
        expect({ status: full.status, body: comparable(full.body) }, where).toEqual({
          status: trpc.status,
          body: comparable(trpc.body),
        });
        if (message) expect(full.body, where).toContain(`"message":"${message}"`);
        // Nothing of the other user's reaches the answer.
        expect(full.body, where).not.toContain('not yours');
      }
    }
    const post = await fetch(`${app.url}/trpc/notes.list?batch=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...cookieOf(owner.token) },
      body: JSON.stringify({ 0: superjson.serialize(list) }),
    });
    expect(post.status).toBe(405);
  });

  test("a cursor from another user's list pages through the caller's own notes only", async () => {
    const strangersFirst = await stranger.caller.notes.list({ nav: 'all', limit: 1 });
    const own = (await owner.caller.notes.list({ nav: 'all', limit: 100 })).items.map((item) => item.id);
    const foreignCursor = Buffer.from(
      JSON.stringify([new Date('2027-01-01T00:00:00Z').toISOString(), strangersFirst.items[0]?.id]),
    ).toString('base64url');
    const url = batchUrl('notes.list', { 0: { nav: 'all', limit: 100, cursor: foreignCursor } });
    const answer = await get(app, url, cookieOf(owner.token));
    expect(answer.status).toBe(200);
    const [call] = JSON.parse(answer.body) as [{ result: { data: { json: { items: { id: string }[] } } } }];
    expect(call.result.data.json.items.map((item) => item.id)).toEqual(own);
    expect(answer.body).not.toContain('not yours');
  });
});
