// `npm run bench:notes`: the note list's queries on the seeded benchmark user (run
// `npm run seed:bench` first). For each left-nav entry, sort, filter and search: p50/p95 of the
// whole service call in-process (SQL build, query, mapping) and of the raw SQL it runs, their
// ratio, and the query plan's top nodes. Budgets: a 50-item list p95 < 15 ms and
// ≤ 1.5× its raw SQL; keyword search p95 < 50 ms.
import { listHighlights } from '../../server/domain/highlights/highlights.service.ts';
import { listNotes, noteListSql, noteSearchTarget } from '../../server/domain/notes/note-list.ts';
import { exactPhrases } from '../../server/domain/search/search-condition.ts';
import { HighlightSort, SortOrder } from '../../src/enums.ts';
import type { NoteListInput } from '../../src/schemas/notes.ts';
import { openBenchUser, time, toPg } from './bench-db.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const { orm, raw, user, highlightCount } = await openBenchUser();

function planSummary(rows: { 'QUERY PLAN': string }[]): string {
  return rows
    .map((r) => r['QUERY PLAN'])
    .filter((l) => /Scan|Sort|Limit|Bitmap|Nested|Hash/.test(l))
    .slice(0, 3)
    .map((l) =>
      l
        .trim()
        .replace(/\s+\(cost.*$/, '')
        .replace(/^->\s*/, ''),
    )
    .join(' › ');
}

const folderId = (await raw.query('select id from folder where user_id = $1 order by id limit 1', [user.id]))
  .rows[0]?.id;
const cases: [string, Partial<NoteListInput>][] = [
  ...(['all', 'later', 'star', 'archive', 'unarchive', 'trash', '24h', 'notag'] as const).map(
    (nav) => [`nav ${nav}`, { nav }] as [string, Partial<NoteListInput>],
  ),
  ...Object.values(SortOrder).map((sort) => [`sort ${sort}`, { sort }] as [string, Partial<NoteListInput>]),
  ['tag reading', { tag: 'reading' }],
  ['folder', { folderId }],
  ['search 用 (1 CJK)', { q: '用' }],
  ['search 用户 (2 CJK)', { q: '用户' }],
  ['search 用户体验 (4 CJK)', { q: '用户体验' }],
  ['search 読書 (JA)', { q: '読書' }],
  ['search garden (Latin)', { q: 'garden' }],
  ['search #reading quiet', { q: '#reading quiet' }],
];

console.log(`user ${user.id}: ${highlightCount} highlights; ${RUNS} runs each\n`);
console.log('case                         | service p50 / p95 ms | raw SQL p50 / p95 ms | ratio p50 | plan');
console.log('-----------------------------|----------------------|----------------------|-----------|-----');
const results: { name: string; p95: number; ratio: number; search: boolean }[] = [];
for (const [name, partial] of cases) {
  const input: NoteListInput = { nav: 'all', sort: SortOrder.newestFirst, limit: 50, ...partial };
  const service = await time(() => listNotes(orm.em.fork(), user, input), RUNS);
  const { sql, params } = noteListSql(user, input, {
    exactPhrases: await exactPhrases(orm.em.fork(), input.q ?? '', noteSearchTarget(user)),
  });
  const pgSql = toPg(sql);
  const rawTime = await time(() => raw.query(pgSql, params), RUNS);
  const plan = planSummary((await raw.query(`explain (analyze, costs off) ${pgSql}`, params)).rows);
  // The ratio is judged at p50: at about a millisecond, p95 is dominated by scheduler noise.
  const ratio = service.p50 / rawTime.p50;
  results.push({ name, p95: service.p95, ratio, search: name.startsWith('search') });
  console.log(
    `${name.padEnd(28)} | ${service.p50.toFixed(1).padStart(8)} / ${service.p95.toFixed(1).padStart(8)}  | ${rawTime.p50.toFixed(1).padStart(8)} / ${rawTime.p95.toFixed(1).padStart(8)}  | ${ratio.toFixed(2).padStart(9)} | ${plan}`,
  );
}
// A page deep into article order: its cursor ends inside a note 2,000 highlights down.
let deepCursor: string | null = null;
for (let page = 0; page < 40; page++) {
  const chunk = await listHighlights(orm.em.fork(), user, {
    limit: 50,
    sort: HighlightSort.positionInArticle,
    cursor: deepCursor,
  });
  deepCursor = chunk.nextCursor;
}
for (const [name, filter] of [
  ['highlights first page', {}],
  ['highlights by colour', { slotId: 3 }],
  ['highlights tag reading', { tag: 'reading' }],
  ['highlight search 用', { q: '用' }],
  ['highlight search 用户', { q: '用户' }],
  ['highlight search 用户体验', { q: '用户体验' }],
  ['highlight search garden', { q: 'garden' }],
  ['highlights in article order', { sort: HighlightSort.positionInArticle }],
  ['highlights article by colour', { sort: HighlightSort.positionInArticle, slotId: 3 }],
  ['highlights article page 41', { sort: HighlightSort.positionInArticle, cursor: deepCursor }],
] as const) {
  const t = await time(() => listHighlights(orm.em.fork(), user, { limit: 50, ...filter }), RUNS);
  const search = name.includes('search');
  results.push({ name, p95: t.p95, ratio: 1, search });
  console.log(`${name.padEnd(28)} | ${t.p50.toFixed(1).padStart(8)} / ${t.p95.toFixed(1).padStart(8)}  |`);
}
const over = results.filter((r) => (r.search ? r.p95 > 50 : r.p95 > 15 || r.ratio > 1.5));
console.log(over.length ? `\nover budget: ${over.map((r) => r.name).join(', ')}` : '\nall within budget');
await raw.end();
await orm.close();
