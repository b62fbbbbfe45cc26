import { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  MAINTENANCE_JOBS,
  maintenanceProcessor,
  queueSearchReindexIfBehind,
  reindexSearchJobId,
} from '../../jobs/maintenance.processor.ts';
import {
  reindexSearch,
  searchIndexVersion,
  setSearchIndexVersion,
} from '../../server/domain/search/reindex.ts';
import { createRedis } from '../../server/queue.ts';
import { CoreType } from '../../src/enums.ts';
import { QUEUES } from '../../src/jobs.ts';
import { newId } from '../../src/rules/id.ts';
import { SEARCH_TOKENS_VERSION } from '../../src/search/tokens.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { makeClippedNote, makeQueuedNote } from '../helpers/notes.ts';
import { signedInUser } from '../helpers/users.ts';

let deps: TestDeps;
beforeAll(async () => {
  deps = await createTestDeps();
});
afterAll(() => deps.close());

/** The first tokenizer (version 1), for Latin text: words of letters and digits, so C++ was `c`. */
function version1Literal(...texts: (string | null)[]): string {
  const words = texts
    .filter(Boolean)
    .join('\n')
    .normalize('NFKC')
    .toLowerCase()
    .matchAll(/[\p{L}\p{N}_]+(?:['’]\p{L}+)?/gu);
  return [...new Set([...words].map((m) => m[0].replace(/’/g, "'")))]
    .map((w) => `'${w.replace(/'/g, "''")}'`)
    .join(' ');
}

type Vectors = { notes: Record<string, [string, string]>; highlights: Record<string, string> };

/** Every stored vector as PostgreSQL prints it, keyed by note id and by highlight owner and id. */
async function vectors(): Promise<Vectors> {
  const em = deps.orm.em.fork();
  const notes = await em.execute<{ id: string; s: string; n: string }[]>(
    'select id, search_vector::text as s, highlights_vector::text as n from note',
  );
  const highlights = await em.execute<{ key: string; s: string }[]>(
    `select user_id || '/' || id as key, search_vector::text as s from highlight`,
  );
  return {
    notes: Object.fromEntries(notes.map((p) => [p.id, [p.s, p.n]])),
    highlights: Object.fromEntries(highlights.map((n) => [n.key, n.s])),
  };
}

/** Rewrites every stored vector as version 1 built it, and records version 1: an install before the upgrade. */
async function downgradeIndex(): Promise<void> {
  const em = deps.orm.em.fork();
  const notes = await em.execute<
    { id: string; title: string; site_name: string | null; author: string | null; text: string | null }[]
  >(
    `select p.id, p.title, p.site_name, p.author, c.text from note p
     left join note_content c on c.note_id = p.id where p.search_vector <> ''::tsvector`,
  );
  for (const p of notes)
    await em.execute('update note set search_vector = ?::tsvector where id = ?', [
      version1Literal(p.title, p.site_name, p.author, p.text),
      p.id,
    ]);
  const highlights = await em.execute<
    { user_id: string; id: string; note_id: string | null; text: string; annotation: string | null }[]
  >('select user_id, id, note_id, text, annotation from highlight');
  for (const n of highlights)
    await em.execute('update highlight set search_vector = ?::tsvector where user_id = ? and id = ?', [
      version1Literal(n.text, n.annotation),
      n.user_id,
      n.id,
    ]);
  const byNote = Map.groupBy(
    highlights.filter((n) => n.note_id),
    (n) => n.note_id as string,
  );
  for (const [noteId, list] of byNote)
    await em.execute('update note set highlights_vector = ?::tsvector where id = ?', [
      version1Literal(...list.flatMap((n) => [n.text, n.annotation])),
      noteId,
    ]);
  await setSearchIndexVersion(em, 1);
}

describe('search re-index after a tokenizer change', () => {
  test('a new install records the current version: nothing to re-index', async () => {
    expect(await searchIndexVersion(deps.orm.em.fork())).toBe(SEARCH_TOKENS_VERSION);
    expect(await queueSearchReindexIfBehind(deps.orm.em.fork(), deps.queues)).toBe(false);
    expect(await deps.queues.maintenance.getJob(reindexSearchJobId())).toBeUndefined();
  });

  test('notes, their highlights and daily notes indexed by version 1 are rebuilt once, in batches, as new writes would be', async () => {
    const alice = await signedInUser(deps);
    const bob = await signedInUser(deps);
    await makeClippedNote(deps, alice.user.id, { title: 'Templates', text: 'Modern C++ in practice.' });
    await makeClippedNote(deps, alice.user.id, { title: 'Pets', text: 'The cat sat on the mat.' });
    await makeClippedNote(deps, alice.user.id, { title: 'Style', text: 'Readable code.' });
    const host = await makeClippedNote(deps, alice.user.id, { title: 'Host', text: 'Nothing technical.' });
    await makeClippedNote(deps, bob.user.id, { title: 'Runtime', text: 'Streams in node.js and .NET' });
    // A note still waiting for its clip has never been indexed and stays so.
    const queued = await makeQueuedNote(deps, alice.user.id, {
      url: 'https://queued.example/',
      title: 'Queued C# page',
    });
    const highlight = await alice.caller.highlights.create({
      id: newId(),
      noteId: host.id,
      coreType: CoreType.textNote,
      text: 'Try it in F#',
    });
    await alice.caller.highlights.update({ id: highlight.id, annotation: 'or C#, or C++' });
    for (const [i, text] of ['Learning C#', 'Cats and code', 'Learning F#'].entries())
      await alice.caller.daily.save({ date: `2026-01-0${i + 1}`, text, baseText: '', baseVersion: 0 });
    await bob.caller.daily.save({ date: '2026-01-01', text: 'node.js notes', baseText: '', baseVersion: 0 });

    const current = await vectors();
    const noteList = async (q: string) =>
      (await alice.caller.notes.list({ nav: 'all', q })).items.map((p) => p.title).sort();
    const highlights = async (q: string) =>
      (await alice.caller.highlights.list({ limit: 50, q })).items.map((h) => h.text);
    const daily = async (q: string) =>
      (await alice.caller.daily.list({ limit: 50, q })).items.map((d) => d.date);
    expect(await noteList('C++')).toEqual(['Host', 'Templates']);

    await downgradeIndex();
    expect(await vectors()).not.toEqual(current);
    expect((await vectors()).notes[queued.id]).toEqual(['', '']);
    // Version 1 stored C++ as c, which the query for c++ does not find: the upgrade needs the re-index.
    expect(await noteList('C++')).toEqual([]);

    // The worker queues one job, however many times it starts.
    expect(await queueSearchReindexIfBehind(deps.orm.em.fork(), deps.queues)).toBe(true);
    expect(await queueSearchReindexIfBehind(deps.orm.em.fork(), deps.queues)).toBe(true);
    expect(await deps.queues.maintenance.getJobCounts('waiting')).toEqual({ waiting: 1 });
    expect((await deps.queues.maintenance.getJob(reindexSearchJobId()))?.name).toBe(
      MAINTENANCE_JOBS.reindexSearch,
    );
    await (await deps.queues.maintenance.getJob(reindexSearchJobId()))?.remove();

    // Batches of two across two owners: six web notes and four daily notes, one highlight.
    await expect(reindexSearch(deps.orm.em.fork(), { batchSize: 2 })).resolves.toEqual({
      notes: 10,
      highlights: 1,
    });
    expect(await vectors()).toEqual(current);
    expect(await searchIndexVersion(deps.orm.em.fork())).toBe(SEARCH_TOKENS_VERSION);
    expect(await noteList('C++')).toEqual(['Host', 'Templates']);
    expect(await noteList('C#')).toEqual(['Host']);
    expect(await highlights('F#')).toEqual(['Try it in F#']);
    expect(await daily('C#')).toEqual(['2026-01-01']);
    expect(await daily('F#')).toEqual(['2026-01-03']);

    // Done once: running again changes nothing, and the worker queues nothing.
    await expect(reindexSearch(deps.orm.em.fork())).resolves.toEqual({ upToDate: true });
    expect(await queueSearchReindexIfBehind(deps.orm.em.fork(), deps.queues)).toBe(false);
  });

  test('vectors stored before CJK positions are still searched exactly until the re-index rebuilds them', async () => {
    const alice = await signedInUser(deps);
    await makeClippedNote(deps, alice.user.id, { title: '产品', text: '提升用户体验的十个方法。' });
    await makeClippedNote(deps, alice.user.id, { title: '乱序', text: '体验用户户体的拼写练习。' });
    const host = await makeClippedNote(deps, alice.user.id, { title: 'Host', text: 'Nothing in Chinese.' });
    await alice.caller.highlights.create({
      id: newId(),
      noteId: host.id,
      coreType: CoreType.textNote,
      text: '用户体验很重要',
    });
    const noteList = async (q: string) =>
      (await alice.caller.notes.list({ nav: 'all', q })).items.map((p) => p.title).sort();
    const highlights = async (q: string) =>
      (await alice.caller.highlights.list({ limit: 50, q })).items.map((h) => h.text);
    const current = await vectors();
    expect(await noteList('用户体验')).toEqual(['Host', '产品']);

    // Version 2 stored the same lexemes, without positions.
    const em = deps.orm.em.fork();
    await em.execute(
      'update note set search_vector = strip(search_vector), highlights_vector = strip(highlights_vector)',
    );
    await em.execute('update highlight set search_vector = strip(search_vector)');
    await setSearchIndexVersion(em, 2);
    expect(await vectors()).not.toEqual(current);
    expect(await noteList('用户体验')).toEqual(['Host', '产品']);
    expect(await noteList('户体验')).toEqual(['Host', '产品']);
    expect(await highlights('用户体验')).toEqual(['用户体验很重要']);

    await reindexSearch(deps.orm.em.fork());
    expect(await vectors()).toEqual(current);
    expect(await noteList('用户体验')).toEqual(['Host', '产品']);
    expect(await highlights('用户体验')).toEqual(['用户体验很重要']);
  });

  test('the maintenance worker runs the job by name', async () => {
    await downgradeIndex();
    const before = await vectors();
    const run = maintenanceProcessor(() => deps.orm.em.fork(), deps);
    const job = { name: MAINTENANCE_JOBS.reindexSearch, data: {} } as Parameters<typeof run>[0];
    await expect(run(job)).resolves.toMatchObject({
      notes: expect.any(Number),
      highlights: expect.any(Number),
    });
    expect(await vectors()).not.toEqual(before);
    await expect(run(job)).resolves.toEqual({ upToDate: true });
  });

  test('a re-index that failed every attempt is retried when the worker starts again', async () => {
    await setSearchIndexVersion(deps.orm.em.fork(), 1);
    const jobId = reindexSearchJobId();
    await deps.queues.maintenance.add(MAINTENANCE_JOBS.reindexSearch, {}, { jobId, attempts: 1 });
    const connection = createRedis(deps.config.redisUrl, 'worker');
    const failing = new Worker(
      QUEUES.maintenance,
      async () => {
        throw new Error('database away');
      },
      { connection, prefix: deps.config.redisPrefix },
    );
    await expect.poll(async () => (await deps.queues.maintenance.getJob(jobId))?.getState()).toBe('failed');
    await failing.close();
    connection.disconnect();

    expect(await queueSearchReindexIfBehind(deps.orm.em.fork(), deps.queues)).toBe(true);
    expect(await (await deps.queues.maintenance.getJob(jobId))?.getState()).toBe('waiting');
    await setSearchIndexVersion(deps.orm.em.fork(), SEARCH_TOKENS_VERSION);
  });

  test('migrating an install that has notes or highlights records version 1, so the worker re-indexes it', async () => {
    // Back to before the maintenance state (later migrations revert too), then up to the latest.
    await deps.orm.migrator.down({ to: 'Migration20261123200000_note_owner_key' });
    await deps.orm.migrator.up();
    expect(await searchIndexVersion(deps.orm.em.fork())).toBe(1);
    expect(await queueSearchReindexIfBehind(deps.orm.em.fork(), deps.queues)).toBe(true);
    await setSearchIndexVersion(deps.orm.em.fork(), SEARCH_TOKENS_VERSION);
  });

  test('migrating an install indexed by version 2 keeps it there, so the worker adds the CJK positions', async () => {
    await deps.orm.migrator.down({ to: 'Migration20261124090000_maintenance_state' });
    await setSearchIndexVersion(deps.orm.em.fork(), 2);
    await deps.orm.migrator.up();
    expect(await searchIndexVersion(deps.orm.em.fork())).toBe(2);
    expect(await queueSearchReindexIfBehind(deps.orm.em.fork(), deps.queues)).toBe(true);
    await setSearchIndexVersion(deps.orm.em.fork(), SEARCH_TOKENS_VERSION);
  });
});
