// What the benches of a library at 200,000 and at 1,000,000 notes share (counts.bench.ts,
// growth.bench.ts): the two databases (BENCH_COUNTS_200K_URL, BENCH_COUNTS_1M_URL; default
// margin_bench_counts_200k / _1m on the local PostgreSQL), made when missing and migrated, and
// the real server on one of them, signed in, with a timer of its answers.
// The 200k database is seeded by seed.ts; the 1m one is grown from it in SQL (seeding 1,000,000
// notes through seed.ts takes hours on a shared machine): a copy of the 200k database
// (`create database … template`), then each missing note as a copy of a seeded one (the same
// title, text, tags, flow, folder and search vector, its times moved back by whole spans of the
// seeded notes', so the newest notes and the 24 Hours view stay as they were), and the
// highlights of as many copied notes, in order, as make up the missing highlights (a copied note
// has all of its seed's highlights, and its highlights_vector, or none). The count triggers stay
// on for the inserts, so note_count and note_tag_count are kept as the app keeps them; a note's
// highlight_count and highlight_tags are copied (their triggers would recount each note).
// Secondary indexes are dropped for the inserts and built again from their own definitions.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createOrm, migrate } from '../../server/db/orm.ts';
import {
  flag,
  ROOT,
  rawRequest,
  setBenchPassword,
  signIn,
  startBenchServer,
  stopChild,
} from './server-load.ts';

/** How many answers are timed (`--runs`, at least 7; 15 unless told) after how many warm-ups. */
export const TIMING = { runs: Math.max(7, Number(flag('runs') ?? 15)), warmups: 5 } as const;

export const SIZES = {
  '200k': { notes: 200_000, highlights: 400_000 },
  '1m': { notes: 1_000_000, highlights: 1_000_000, grownFrom: '200k' },
} as const;
export type Size = keyof typeof SIZES;

/** The sizes a `--sizes 200k,1m` argument names. */
export function parseSizes(value: string | undefined): Size[] {
  const sizes = (value ?? '200k,1m').split(',') as Size[];
  for (const size of sizes) if (!(size in SIZES)) throw new Error(`unknown size ${size}: 200k or 1m`);
  return sizes;
}

export const urlOf = (size: Size) =>
  process.env[`BENCH_COUNTS_${size.toUpperCase()}_URL`] ??
  `postgres://postgres@127.0.0.1:5432/margin_bench_counts_${size}`;

const BENCH_EMAIL = 'bench@example.test';

async function seededNotes(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch {
    return 0; // no such database yet
  }
  try {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int n from note where user_id = (select id from "user" where email = $1)`,
      [BENCH_EMAIL],
    );
    return rows[0]?.n ?? 0;
  } catch {
    return 0;
  } finally {
    await client.end();
  }
}

/** Makes the size's database unless it holds the bench user with that many notes, then migrates it. */
export async function prepareDatabase(size: Size): Promise<void> {
  const url = urlOf(size);
  const spec = SIZES[size];
  if ((await seededNotes(url)) < spec.notes) {
    if ('grownFrom' in spec) {
      await prepareDatabase(spec.grownFrom);
      await growDatabase(urlOf(spec.grownFrom), url, spec);
    } else {
      console.log(`seeding ${spec.notes} notes and ${spec.highlights} highlights into ${url} …`);
      const seed = spawn(
        process.execPath,
        [
          path.join(ROOT, 'test/bench/seed.ts'),
          '--pages',
          String(spec.notes),
          '--highlights',
          String(spec.highlights),
        ],
        { stdio: 'inherit', env: { ...process.env, BENCH_DATABASE_URL: url } },
      );
      const code = await new Promise<number | null>((resolve) => seed.once('exit', resolve));
      if (code !== 0) throw new Error(`seeding failed (exit ${code})`);
    }
  }
  const orm = await createOrm(url, { pool: { min: 1, max: 1 } });
  try {
    const applied = await migrate(orm);
    if (applied.length) console.log(`migrated ${url}: ${applied.join(', ')}`);
  } finally {
    await orm.close();
  }
}

// --- growing a database -----------------------------------------------------------------------

/** The connection's backend at low CPU priority (best effort: the server may be elsewhere, or not ours to renice). */
async function lowPriority(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() pid');
  try {
    os.setPriority(Number(rows[0]?.pid), 15);
  } catch {
    // not permitted, or another host's process
  }
}

/**
 * `insert into <table> select …` copying every column of `table` from the alias `s`, except
 * those given an expression in `set` and the change columns (their defaults mark new rows).
 */
async function copyColumns(client: pg.Client, table: string, set: Record<string, string>): Promise<string> {
  const { rows } = await client.query<{ name: string }>(
    `select column_name::text as name from information_schema.columns
     where table_schema = 'public' and table_name = $1 and column_name not in ('change_xid', 'change_seq')
     order by ordinal_position`,
    [table],
  );
  const columns = rows.map((r) => r.name);
  return `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')})
    select ${columns.map((c) => set[c] ?? `s."${c}"`).join(', ')}`;
}

async function growDatabase(
  fromUrl: string,
  toUrl: string,
  target: { notes: number; highlights: number },
): Promise<void> {
  const started = performance.now();
  const step = (what: string) =>
    console.log(`  ${what} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  const from = new URL(fromUrl).pathname.slice(1);
  const to = new URL(toUrl).pathname.slice(1);
  console.log(`growing ${to} from ${from} to ${target.notes} notes and ${target.highlights} highlights …`);
  const admin = new pg.Client({ connectionString: toUrl.replace(/\/[^/]+$/, '/postgres') });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${to} with (force)`);
    await admin.query(`create database ${to} template ${from} strategy file_copy`);
  } finally {
    await admin.end();
  }
  step('copied');
  const client = new pg.Client({ connectionString: toUrl });
  await client.connect();
  try {
    await lowPriority(client);
    await client.query(`set maintenance_work_mem = '512MB'`);
    const {
      rows: [source],
    } = await client.query<{ user_id: string; notes: number; highlights: number; span: string }>(
      `select n.user_id, count(*)::int notes,
         (select count(*)::int from highlight h where h.user_id = n.user_id) highlights,
         -- the seeded notes' span plus one spacing: a copy moved back by it follows on the oldest
         ((max(n.created_at) - min(n.created_at)) * count(*) / (count(*) - 1))::text span
       from note n where n.user_id = (select id from "user" where email = $1) group by n.user_id`,
      [BENCH_EMAIL],
    );
    if (!source) throw new Error(`${from} holds no bench user`);
    const seeded = source.notes;
    await client.query('begin');
    // Each new note j (seeded notes are 0 … seeded − 1, ids bp + 8 digits) copies note j % seeded,
    // moved back by j / seeded spans; the first copies, in order, bring their seeds' highlights
    // until the highlights are made up.
    await client.query(
      `create temp table grow_note on commit drop as
       select g.*, coalesce(sum(g.source_highlights) over (order by g.j), 0) <= $3 as with_highlights
       from (
         select j, j / $1 as k, 'bp' || lpad(j::text, 8, '0') as id, s.id as source_id,
           (select count(*) from highlight h where h.note_id = s.id) as source_highlights
         from generate_series($1::int, $2::int - 1) j
         join note s on s.id = 'bp' || lpad((j % $1)::text, 8, '0')
       ) g`,
      [seeded, target.notes, target.highlights - source.highlights],
    );
    step('planned');
    const { rows: indexes } = await client.query<{ name: string; definition: string }>(
      `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
       from pg_index i where i.indrelid in ('note'::regclass, 'highlight'::regclass, 'note_content'::regclass)
         and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
    );
    for (const index of indexes) await client.query(`drop index ${index.name}`);
    const shift = `(g.k * $1::interval)`;
    await client.query(
      `${await copyColumns(client, 'note', {
        id: 'g.id',
        url: `'https://bench.example/' || g.j`,
        url_hash: `rpad(g.id, 64, '0')`,
        created_at: `s.created_at - ${shift}`,
        updated_at: `s.updated_at - ${shift}`,
        trashed_at: `s.trashed_at - ${shift}`,
        clipped_at: `s.clipped_at - ${shift}`,
        highlight_count: 'case when g.with_highlights then s.highlight_count else 0 end',
        highlight_tags: `case when g.with_highlights then s.highlight_tags else '{}' end`,
        highlights_vector: `case when g.with_highlights then s.highlights_vector else '' end`,
      })} from grow_note g join note s on s.id = g.source_id order by g.j`,
      [source.span],
    );
    step('notes');
    await client.query(
      `${await copyColumns(client, 'note_content', {
        note_id: 'g.id',
        updated_at: `s.updated_at - ${shift}`,
      })} from grow_note g join note_content s on s.note_id = g.source_id order by g.j`,
      [source.span],
    );
    step('contents');
    // The notes carry their highlight counts and highlight tags already.
    const recounted = ['highlight_count_insert', 'note_highlight_tags_insert'];
    for (const t of recounted) await client.query(`alter table highlight disable trigger ${t}`);
    await client.query(
      `${await copyColumns(client, 'highlight', {
        id: `'bn' || lpad((g.k * $2::bigint + substr(s.id, 3)::bigint)::text, 10, '0')`,
        note_id: 'g.id',
        created_at: `s.created_at - ${shift}`,
        updated_at: `s.updated_at - ${shift}`,
        annotated_at: `s.annotated_at - ${shift}`,
      })} from grow_note g join highlight s on s.note_id = g.source_id
       where g.with_highlights order by g.j, s.id`,
      [source.span, source.highlights],
    );
    for (const t of recounted) await client.query(`alter table highlight enable trigger ${t}`);
    step('highlights');
    for (const index of indexes) await client.query(index.definition);
    await client.query('commit');
    step('indexes');
    await client.query('vacuum analyze');
    const {
      rows: [grown],
    } = await client.query<{ notes: number; highlights: number }>(
      `select (select count(*)::int from note where user_id = $1) notes,
         (select count(*)::int from highlight where user_id = $1) highlights`,
      [source.user_id],
    );
    step(`grown to ${grown?.notes} notes and ${grown?.highlights} highlights`);
  } finally {
    await client.end();
  }
}

// --- the server on a size ---------------------------------------------------------------------

/** The real server (production, no workers) on the size's database, and a signed-in client's headers. */
export async function serveSize(
  size: Size,
  port: number,
  dataDir: string,
): Promise<{ headers: Record<string, string>; stop: () => Promise<void> }> {
  const url = urlOf(size);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(`select id from "user" where email = $1`, [
      BENCH_EMAIL,
    ]);
    await setBenchPassword(client, Number(rows[0]?.id));
  } finally {
    await client.end();
  }
  const server = await startBenchServer(port, {
    redisPrefix: `bench-${size}-${process.pid}`,
    dataDir,
    env: { DATABASE_URL: url },
  });
  // As client/trpc.ts sends queries: the streaming batch link (JSON lines), as a browser would.
  const headers = {
    cookie: await signIn(port),
    'x-lang': 'en',
    'trpc-accept': 'application/jsonl',
    'accept-encoding': 'gzip, deflate, br, zstd',
  };
  return { headers, stop: () => stopChild(server) };
}

export interface HttpTimes {
  median: number;
  p95: number;
  min: number;
  max: number;
}

/** One GET of `url` read to its last byte: ms and the body, or an error when it is not a 200 answer. */
export async function timedGet(
  port: number,
  url: string,
  headers: Record<string, string>,
): Promise<{ ms: number; body: Buffer }> {
  const started = performance.now();
  const res = await rawRequest(port, 'GET', url, headers);
  const ms = performance.now() - started;
  if (res.status !== 200 || res.body.includes('"error"')) {
    throw new Error(`${url} answered ${res.status}: ${res.body.toString().slice(0, 300)}`);
  }
  return { ms, body: res.body };
}

export interface Target {
  port: number;
  url: string;
  headers: Record<string, string>;
}

/**
 * Median, p95 and range of `runs` answers to each target, each read to its last byte, after
 * `warmups`; the targets take turns request by request, so the machine's drift falls on each.
 */
export async function timeRequests(
  targets: readonly Target[],
  { runs, warmups }: { runs: number; warmups: number },
): Promise<HttpTimes[]> {
  const samples: number[][] = targets.map(() => []);
  for (let i = 0; i < warmups + runs; i++) {
    for (const [t, { port, url, headers }] of targets.entries()) {
      const { ms } = await timedGet(port, url, headers);
      if (i >= warmups) samples[t]?.push(ms);
    }
  }
  return samples.map((of) => {
    of.sort((a, b) => a - b);
    const at = (q: number) => of[Math.min(of.length - 1, Math.floor(q * of.length))] as number;
    return { median: at(0.5), p95: at(0.95), min: of[0] as number, max: of.at(-1) as number };
  });
}
