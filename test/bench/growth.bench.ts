// `npm run bench:growth [-- --sizes 200k,1m --runs 15]`: the note list and keyword search as the
// library grows (issue 35: at 1,000,000 notes within 2× of the 200,000 figures), on bench:counts'
// databases (library-sizes.ts: margin_bench_counts_200k, seeded, and margin_bench_counts_1m, grown
// from it in SQL; made when missing, and migrated). Over HTTP: the real server (production, no
// workers) in a child process, signed in with the session cookie, each notes.list as the client's
// infinite query sends it (one call through the streaming batch link, 100 rows, newest first,
// a browser's Accept-Encoding, read to its last byte): All's first page; its 50th page, through
// the cursor of the 49th; a tag (#reading) and a state (Later); a search for a 4-character CJK run,
// a Latin word and both. Median and p95 of --runs after warm-ups at each size, and the 1m/200k
// ratio of each against the 2× budget. Both sizes' servers run at once and their requests take
// turns, so the machine's drift falls on both. For each measure over 2×, the statement's plan at 1m
// (EXPLAIN ANALYZE, BUFFERS) shows where the time goes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { User } from '../../server/db/entities/index.ts';
import { createOrm } from '../../server/db/orm.ts';
import { noteListSql, noteSearchTarget } from '../../server/domain/notes/note-list.ts';
import { exactPhrases } from '../../server/domain/search/search-condition.ts';
import { parseSearchQuery } from '../../src/rules/search-query.ts';
import type { NoteListInput } from '../../src/schemas/notes.ts';
import { toPg } from './bench-db.ts';
import {
  type HttpTimes,
  parseSizes,
  prepareDatabase,
  type Size,
  serveSize,
  TIMING,
  timedGet,
  timeRequests,
  urlOf,
} from './library-sizes.ts';
import { flag, NOTE_LIST_INPUT, queryUrl } from './server-load.ts';

const { runs: RUNS, warmups: WARMUPS } = TIMING;
const SERVER_PORT = 3943;
const BUDGET = 2;
const DEEP_PAGE = 50;
const sizes = parseSizes(flag('sizes'));

/** Each measure's notes.list input; the deep page's cursor is filled in at each size. */
const DEEP_NAME = `list, page ${DEEP_PAGE}`;
const MEASURES: [name: string, input: NoteListInput][] = [
  ['list, first page', NOTE_LIST_INPUT],
  [DEEP_NAME, NOTE_LIST_INPUT],
  ['list, tag #reading', { ...NOTE_LIST_INPUT, q: '#reading' }],
  ['list, Later', { ...NOTE_LIST_INPUT, nav: 'later' }],
  ['search 用户体验 (CJK)', { ...NOTE_LIST_INPUT, q: '用户体验' }],
  ['search garden (Latin)', { ...NOTE_LIST_INPUT, q: 'garden' }],
  ['search 用户体验 garden', { ...NOTE_LIST_INPUT, q: '用户体验 garden' }],
];

/** The cursor after page `page - 1` of `input`, asked page by page as the client scrolls. */
async function cursorOfPage(
  port: number,
  input: NoteListInput,
  page: number,
  headers: Record<string, string>,
) {
  // Plain JSON answers (no streaming, no compression) to read the cursor from.
  const plain = { cookie: headers.cookie as string };
  let cursor: string | null = null;
  for (let i = 1; i < page; i++) {
    const { body } = await timedGet(
      port,
      queryUrl('notes.list', { ...input, ...(cursor && { cursor }) }),
      plain,
    );
    const [answer] = JSON.parse(body.toString()) as [{ result: { data: { json: { nextCursor: string } } } }];
    cursor = answer.result.data.json.nextCursor;
    if (!cursor) throw new Error(`the list ends before page ${page}`);
  }
  return cursor as string;
}

/** The service's statement for `input` under EXPLAIN (ANALYZE, BUFFERS), its plan's lines. */
async function plan(size: Size, input: NoteListInput): Promise<string> {
  const url = urlOf(size);
  const orm = await createOrm(url, { pool: { min: 1, max: 1 } });
  const raw = new pg.Client({ connectionString: url });
  await raw.connect();
  try {
    const user = await orm.em.fork().findOneOrFail(User, { email: 'bench@example.test' });
    const exact = await exactPhrases(
      orm.em.fork(),
      parseSearchQuery(input.q ?? '').text,
      noteSearchTarget(user),
    );
    const { sql, params } = noteListSql(user, input, { exactPhrases: exact });
    const { rows } = await raw.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, buffers) ${toPg(sql)}`,
      params,
    );
    return rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n');
  } finally {
    await raw.end();
    await orm.close();
  }
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'margin-bench-growth-'));
const results = new Map<Size, { times: HttpTimes[]; inputs: NoteListInput[] }>();
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
for (const size of sizes) await prepareDatabase(size);
// Every size's server at once, each on its own port, so their requests can take turns.
const servers: Awaited<ReturnType<typeof serveSize>>[] = [];
try {
  for (const [i, size] of sizes.entries()) {
    servers.push(await serveSize(size, SERVER_PORT + i, path.join(work, size)));
  }
  const inputs = await Promise.all(
    sizes.map(async (_, i) => {
      const port = SERVER_PORT + i;
      const headers = servers[i]?.headers ?? {};
      const cursor = await cursorOfPage(port, NOTE_LIST_INPUT, DEEP_PAGE, headers);
      return MEASURES.map(([name, input]) => (name === DEEP_NAME ? { ...input, cursor } : input));
    }),
  );
  console.log(`sizes ${sizes.join(', ')}, load average ${load()}`);
  const times: HttpTimes[][] = sizes.map(() => []);
  for (const [m, [name]] of MEASURES.entries()) {
    const measured = await timeRequests(
      sizes.map((_, i) => ({
        port: SERVER_PORT + i,
        url: queryUrl('notes.list', inputs[i]?.[m]),
        headers: servers[i]?.headers ?? {},
      })),
      { runs: RUNS, warmups: WARMUPS },
    );
    for (const [i, t] of measured.entries()) times[i]?.push(t);
    console.log(
      `${name.padEnd(24)} ${measured.map((t, i) => `${sizes[i]} ${t.median.toFixed(1)} / ${t.p95.toFixed(1)} ms`).join(', ')}`,
    );
  }
  for (const [i, size] of sizes.entries()) {
    results.set(size, { times: times[i] ?? [], inputs: inputs[i] ?? [] });
  }
} finally {
  for (const server of servers) await server.stop();
  fs.rmSync(work, { recursive: true, force: true });
}

console.log(
  `\nnotes.list over HTTP, signed in, 100 rows, median / p95 of ${RUNS} after ${WARMUPS} warm-ups; load average ${load()}`,
);
const small = results.get('200k');
const large = results.get('1m');
const both = small && large;
console.log(
  `measure                  | ${sizes.map((s) => `${s} median / p95 ms`.padEnd(20)).join(' | ')}${both ? ' | 1m/200k median, p95' : ''}`,
);
console.log(
  `-------------------------|${sizes.map(() => '---------------------').join('|')}${both ? '|---------------------' : ''}`,
);
const over: number[] = [];
for (const [i, [name]] of MEASURES.entries()) {
  const cells = sizes.map((s) => {
    const t = results.get(s)?.times[i];
    return t ? `${t.median.toFixed(1).padStart(8)} / ${t.p95.toFixed(1).padStart(8)}`.padEnd(20) : '';
  });
  let ratio = '';
  const a = small?.times[i];
  const b = large?.times[i];
  if (a && b) {
    const median = b.median / a.median;
    const p95 = b.p95 / a.p95;
    if (median > BUDGET) over.push(i);
    ratio = ` | ${median.toFixed(2)}× ${p95.toFixed(2)}×${median > BUDGET ? '  OVER' : ''}`;
  }
  console.log(`${name.padEnd(24)} | ${cells.join(' | ')}${ratio}`);
}
if (both) {
  console.log(
    over.length
      ? `\nover ${BUDGET}× at the median: ${over.map((i) => MEASURES[i]?.[0]).join(', ')}`
      : `\nevery measure within ${BUDGET}× at the median`,
  );
  for (const i of over) {
    const input = large.inputs[i];
    if (input) console.log(`\nplan at 1m, ${MEASURES[i]?.[0]}:\n${await plan('1m', input)}`);
  }
}
