// `npm run bench:counts`: the left-nav counts (notes.counts) on the seeded benchmark user (run
// `npm run seed:bench` first; BENCH_DATABASE_URL picks the database). Prints p50/p95 of the whole
// service call in-process and of the counts computed by their definition (one pass over the
// user's notes, the query the counts ran before issue 14), checks that both give the same
// numbers, and shows the top nodes of each plan. BENCH_ONE_PASS=1 adds the design the counters
// were weighed against: one pass over partial indexes (it creates them in the bench database).
// "Now" is one minute after the newest note or highlight, so the 24 Hours count sees the seed's
// last day whenever the bench runs. Goal (issue 14): ≤ 20 ms at 200,000 notes, ≤ 50 ms at 1,000,000.
import { navCounts, navCountsSql } from '../../server/domain/notes/note-counts.ts';
import { DAY_MS } from '../../src/constants.ts';
import { Flow, NoteKind } from '../../src/enums.ts';
import type { NavCounts } from '../../src/schemas/notes.ts';
import { openBenchUser, percentiles, time, toPg } from './bench-db.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const { orm, raw, user } = await openBenchUser();
const {
  rows: [sizes],
} = await raw.query(
  `select (select count(*)::int from note where user_id = $1) notes,
          (select count(*)::int from highlight where user_id = $1) highlights,
          greatest((select max(created_at) from note where user_id = $1),
                   (select max(created_at) from highlight where user_id = $1)) latest`,
  [user.id],
);
const now = new Date(new Date(sizes.latest).getTime() + 60_000);

/** The plan's first nodes with their actual times, and the execution time. */
async function planSummary(sql: string, params: readonly unknown[]): Promise<string> {
  const { rows } = await raw.query<{ 'QUERY PLAN': string }>(`explain (analyze, costs off) ${sql}`, [
    ...params,
  ]);
  const lines = rows.map((r) => r['QUERY PLAN']);
  return [
    ...lines.filter((l) => l.includes('actual time=')).slice(0, 12),
    lines.find((l) => l.startsWith('Execution')),
  ]
    .map((l) => (l ?? '').trim().replace(/^->\s*/, ''))
    .join('\n    ');
}

/** Every count by its definition: one pass over the user's web notes. */
const DEFINITION = `select
   count(*) filter (where trashed_at is null)::int as "all",
   count(*) filter (where trashed_at is null and flow = ${Flow.later})::int as later,
   count(*) filter (where trashed_at is null and flow = ${Flow.shortlist})::int as star,
   count(*) filter (where trashed_at is null and flow = ${Flow.archive})::int as archive,
   count(*) filter (where trashed_at is null and flow <> ${Flow.archive})::int as unarchive,
   count(*) filter (where trashed_at is not null)::int as trash,
   count(*) filter (where trashed_at is null and (created_at > $1 or exists (
     select 1 from highlight h where h.note_id = n.id and h.created_at > $1)))::int as "24h",
   count(*) filter (where trashed_at is null and tags = '{}')::int as notag
 from note n where user_id = $2 and kind = ${NoteKind.web}`;
const definitionParams = [new Date(now.getTime() - DAY_MS), user.id];

/**
 * The other design issue 14 weighed, kept to measure it (not shipped): every count in one pass
 * with FILTER over partial indexes that cover it (index-only scans), the 24 Hours count as the
 * service counts it. BENCH_ONE_PASS=1 creates the indexes in the bench database.
 */
const ONE_PASS_INDEXES = [
  `create index if not exists bench_note_live_count_index on note (user_id, flow) include (tags)
   where kind = ${NoteKind.web} and trashed_at is null`,
  `create index if not exists bench_note_trash_count_index on note (user_id)
   where kind = ${NoteKind.web} and trashed_at is not null`,
];
const ONE_PASS = `select count(*)::int as "all",
   count(*) filter (where flow = ${Flow.later})::int as later,
   count(*) filter (where flow = ${Flow.shortlist})::int as star,
   count(*) filter (where flow = ${Flow.archive})::int as archive,
   count(*) filter (where flow <> ${Flow.archive})::int as unarchive,
   (select count(*)::int from note where user_id = $2 and kind = ${NoteKind.web} and trashed_at is not null) as trash,
   (select count(*)::int from note r where r.user_id = $2 and r.kind = ${NoteKind.web} and r.trashed_at is null and r.id in (
      select id from note where user_id = $2 and created_at > $1
      union all
      select note_id from highlight where user_id = $2 and created_at > $1)) as "24h",
   count(*) filter (where tags = '{}')::int as notag
 from note where user_id = $2 and kind = ${NoteKind.web} and trashed_at is null`;
if (process.env.BENCH_ONE_PASS === '1') {
  for (const sql of ONE_PASS_INDEXES) await raw.query(sql);
  await raw.query('vacuum analyze note');
}

const { sql, params } = navCountsSql(user, now);
const serviceSql = toPg(sql);
const cases = [
  {
    name: 'navCounts (service)',
    run: () => navCounts(orm.em.fork(), user, now),
    plan: [serviceSql, params] as const,
  },
  ...(process.env.BENCH_ONE_PASS === '1'
    ? [
        {
          name: 'one pass, partial indexes',
          run: () => raw.query(ONE_PASS, definitionParams).then((r) => r.rows[0] as NavCounts),
          plan: [ONE_PASS, definitionParams] as const,
        },
      ]
    : []),
  {
    name: 'definition (before)',
    run: () => raw.query(DEFINITION, definitionParams).then((r) => r.rows[0] as NavCounts),
    plan: [DEFINITION, definitionParams] as const,
  },
];

console.log(
  `user ${user.id}: ${sizes.notes} notes, ${sizes.highlights} highlights; now = ${now.toISOString()}; ${RUNS} runs each\n`,
);
console.log('query                      | p50 ms  | p95 ms  | counts');
console.log('---------------------------|---------|---------|-------');
const serviceRaw = await time(() => raw.query(serviceSql, params), RUNS);
console.log(
  `${'navCounts, its SQL alone'.padEnd(26)} | ${serviceRaw.p50.toFixed(1).padStart(7)} | ${serviceRaw.p95.toFixed(1).padStart(7)} |`,
);
const answers: string[] = [];
for (const c of cases) {
  const t = await time(c.run, RUNS);
  const answer = JSON.stringify(await c.run());
  answers.push(answer);
  const same = answer === answers[0] ? 'the same' : `DIFFERENT: ${answer}`;
  console.log(
    `${c.name.padEnd(26)} | ${t.p50.toFixed(1).padStart(7)} | ${t.p95.toFixed(1).padStart(7)} | ${same}`,
  );
}
console.log(`\ncounts: ${answers[0]}`);
for (const c of cases) console.log(`\nplan, ${c.name}:\n    ${await planSummary(...c.plan)}`);

/**
 * What the counters cost the writes: each statement alone in a transaction that is rolled back,
 * with the note_count triggers and with them disabled (inside that transaction only).
 */
const COUNT_TRIGGERS = ['note_count_insert', 'note_count_update', 'note_count_delete'];
const { rows: someNotes } = await raw.query<{ id: string }>(
  'select id from note where user_id = $1 and kind = $2 and trashed_at is null order by id limit 1000',
  [user.id, NoteKind.web],
);
const ids = someNotes.map((r) => r.id);
let serial = 0;
const writes: [string, () => [string, unknown[]]][] = [
  [
    'set flow, 1 note',
    () => [
      `update note set flow = case when flow = ${Flow.later} then ${Flow.shortlist} else ${Flow.later} end where id = $1`,
      [ids[serial % ids.length]],
    ],
  ],
  [
    'highlight count, 1 note (no count moves)',
    () => ['update note set highlight_count = highlight_count + 1 where id = $1', [ids[serial % ids.length]]],
  ],
  ['trash 100 notes', () => ['update note set trashed_at = now() where id = any($1)', [ids.slice(0, 100)]]],
  [
    'search vectors, 1000 notes (no count moves)',
    () => ["update note set search_vector = search_vector || ''::tsvector where id = any($1)", [ids]],
  ],
  ['delete 100 notes', () => ['delete from note where id = any($1)', [ids.slice(100, 200)]]],
  [
    'insert 1 note',
    () => [
      `insert into note (id, user_id, url, url_hash, title, created_at, updated_at)
       values ($1, $2, $3, $1, 't', now(), now())`,
      [`bench-write-${++serial}`, user.id, `https://bench.example/write/${serial}`],
    ],
  ],
];
async function timeWrite(statement: () => [string, unknown[]], triggers: boolean) {
  return percentiles(async () => {
    await raw.query('begin');
    try {
      if (!triggers) for (const t of COUNT_TRIGGERS) await raw.query(`alter table note disable trigger ${t}`);
      const [sql, params] = statement();
      serial++;
      const started = performance.now();
      await raw.query(sql, params);
      return performance.now() - started;
    } finally {
      await raw.query('rollback');
    }
  }, RUNS);
}
console.log(
  '\nwrite                                       | counted p50 / p95 ms | without triggers p50 / p95 ms',
);
console.log(
  '--------------------------------------------|----------------------|------------------------------',
);
for (const [name, statement] of writes) {
  const counted = await timeWrite(statement, true);
  const plain = await timeWrite(statement, false);
  console.log(
    `${name.padEnd(43)} | ${counted.p50.toFixed(2).padStart(8)} / ${counted.p95.toFixed(2).padStart(8)} | ${plain.p50.toFixed(2).padStart(8)} / ${plain.p95.toFixed(2).padStart(8)}`,
  );
}

await raw.end();
await orm.close();
if (new Set(answers).size > 1) process.exitCode = 1;
