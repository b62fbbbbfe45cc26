// `npm run bench:search`: keyword search on the seeded benchmark user (seed 1,000,000 highlights
// first: `npm run seed:bench -- --pages 20000 --highlights 1000000`). For CJK runs of one to six
// characters, a mixed CJK + Latin query and Latin words: p50/p95 of the whole service call
// in-process for the note list (notes.list) and the highlight list (highlights.list), each 50
// rows, plus the note list's raw SQL under EXPLAIN (ANALYZE, BUFFERS): its execution time and
// shared buffers. `rows` and `ids` (a hash of the ids returned) let two runs, before and after a
// change to the index, show they found the same notes and highlights. Goal (issue 14): a
// four-character CJK query ≤ 20 ms p95 at 1M highlights.
import { createHash } from 'node:crypto';
import os from 'node:os';
import { listHighlights } from '../../server/domain/highlights/highlights.service.ts';
import { listNotes, noteListSql, noteSearchTarget } from '../../server/domain/notes/note-list.ts';
import { exactPhrases } from '../../server/domain/search/search-condition.ts';
import { SortOrder } from '../../src/enums.ts';
import type { NoteListInput } from '../../src/schemas/notes.ts';
import { openBenchUser, time, toPg } from './bench-db.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 60);
const LIMIT = 50;
const GOAL_P95_MS = 20;

/** Label, query, and whether the goal applies (a CJK run of four or more characters). */
const QUERIES: [label: string, q: string, goal: boolean][] = [
  ['1 CJK', '用', false],
  ['2 CJK', '用户', false],
  ['3 CJK', '用户体', false],
  ['4 CJK', '用户体验', true],
  ['4 CJK, rare', '默想冥想', true],
  ['6 CJK', '用户体验设计', true],
  ['4 JA', '日本語の', true],
  ['CJK + Latin', '用户体验 garden', true],
  ['two CJK words', '用户 体验', false],
  ['Latin', 'garden', false],
  ['Latin, 2 words', 'quiet garden', false],
];

const { orm, raw, user, highlightCount } = await openBenchUser();

const idsHash = (ids: string[]) => createHash('sha1').update(ids.join(',')).digest('hex').slice(0, 8);

async function explained(q: string): Promise<{ ms: number; buffers: number }> {
  const input: NoteListInput = { nav: 'all', sort: SortOrder.newestFirst, limit: LIMIT, q };
  const { sql, params } = noteListSql(user, input, {
    exactPhrases: await exactPhrases(orm.em.fork(), input.q ?? '', noteSearchTarget(user)),
  });
  const { rows } = await raw.query(`explain (analyze, buffers, format json) ${toPg(sql)}`, params);
  const [plan] = rows[0]['QUERY PLAN'];
  return {
    ms: plan['Execution Time'],
    buffers: plan.Plan['Shared Hit Blocks'] + plan.Plan['Shared Read Blocks'],
  };
}

console.log(
  `user ${user.id}: ${highlightCount} highlights; ${RUNS} runs each; ${os.cpus().length} CPUs, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}\n`,
);
console.log(
  'query                         | notes p50 / p95 ms | rows ids      | SQL ms  buffers | highlights p50 / p95 ms | rows ids',
);
console.log(
  '------------------------------|--------------------|---------------|-----------------|-------------------------|--------------',
);
const over: string[] = [];
for (const [label, q, goal] of QUERIES) {
  const notesInput: NoteListInput = { nav: 'all', sort: SortOrder.newestFirst, limit: LIMIT, q };
  const notes = await listNotes(orm.em.fork(), user, notesInput);
  const notesTime = await time(() => listNotes(orm.em.fork(), user, notesInput), RUNS);
  const sql = await explained(q);
  const highlights = await listHighlights(orm.em.fork(), user, { limit: LIMIT, q });
  const highlightsTime = await time(() => listHighlights(orm.em.fork(), user, { limit: LIMIT, q }), RUNS);
  const name = `${q} (${label})`;
  if (goal && Math.max(notesTime.p95, highlightsTime.p95) > GOAL_P95_MS) over.push(name);
  console.log(
    [
      // CJK characters take two columns in a terminal.
      name.padEnd(30 - [...q].filter((c) => c.charCodeAt(0) > 0x2e80).length),
      `${notesTime.p50.toFixed(1).padStart(8)} / ${notesTime.p95.toFixed(1).padStart(6)}`,
      `${String(notes.items.length).padStart(4)} ${idsHash(notes.items.map((n) => n.id))}`,
      `${sql.ms.toFixed(1).padStart(6)} ${String(sql.buffers).padStart(8)}`,
      `${highlightsTime.p50.toFixed(1).padStart(13)} / ${highlightsTime.p95.toFixed(1).padStart(6)}`,
      `${String(highlights.items.length).padStart(4)} ${idsHash(highlights.items.map((h) => h.id))}`,
    ].join(' | '),
  );
}
console.log(
  over.length
    ? `\nover ${GOAL_P95_MS} ms p95: ${over.join(', ')}`
    : `\nCJK runs of 4+ characters within ${GOAL_P95_MS} ms p95`,
);
await raw.end();
await orm.close();
