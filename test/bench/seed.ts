// `npm run seed:bench [-- --pages 20000 --highlights 200000]`: one user with that many notes and
// highlights (mixed English, Chinese, Japanese) in BENCH_DATABASE_URL (default: margin_bench on
// the local PostgreSQL, recreated). Rows are written in large multi-row INSERTs, with the same
// tokenizer and columns the app writes, a chunk of notes at a time (1,000,000 notes fit in memory).
// Notes are 37 minutes apart and the newest was saved just before the seed ran (older ones go as
// far back as the count needs), so the 24 Hours view holds the last day's ~39 notes plus a few
// older notes highlighted in that day, at any size.
import pg from 'pg';
import { createOrm, migrate } from '../../server/db/orm.ts';
import { ClipStatus, CoreType, Flow } from '../../src/enums.ts';
import { tsvectorLiteral } from '../../src/search/tokens.ts';
import { BENCH_URL } from './bench-db.ts';
import { languageFor, prng, sentence } from './corpus.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const NOTES = arg('pages', 20_000);
const HIGHLIGHTS = arg('highlights', 200_000);

const MINUTE_MS = 60_000;
const NOTE_SPACING_MS = 37 * MINUTE_MS;
/** One highlight in this many is written in the last day on an older note (the 24 Hours view's other half). */
const RECENT_HIGHLIGHT_EVERY = 5000;
const NOTE_CHUNK = 10_000;

async function recreateDatabase(url: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url.replace(/\/[^/]+$/, '/postgres') });
  await admin.connect();
  const name = new URL(url).pathname.slice(1);
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(
    `create database ${name} encoding 'UTF8' lc_collate 'C.UTF-8' lc_ctype 'C.UTF-8' template template0`,
  );
  await admin.end();
}

async function insertRows(
  client: pg.Client,
  table: string,
  columns: string[],
  rows: unknown[][],
  casts: Record<string, string> = {},
) {
  const per = Math.floor(60_000 / columns.length);
  for (let i = 0; i < rows.length; i += per) {
    const chunk = rows.slice(i, i + per);
    const params: unknown[] = [];
    const values = chunk.map(
      (row) =>
        `(${row
          .map((v, j) => {
            params.push(v);
            return `$${params.length}${casts[columns[j] as string] ?? ''}`;
          })
          .join(',')})`,
    );
    await client.query(
      `insert into "${table}" (${columns.map((c) => `"${c}"`).join(',')}) values ${values.join(',')}`,
      params,
    );
  }
}

const started = performance.now();
await recreateDatabase(BENCH_URL);
const orm = await createOrm(BENCH_URL);
await migrate(orm);
await orm.close();

const client = new pg.Client({ connectionString: BENCH_URL });
await client.connect();
const random = prng(42);
const {
  rows: [user],
} = await client.query(
  `insert into "user" (email, nickname, account_id, created_at, updated_at) values ('bench@example.test', 'Bench', 'MBENCH0001', now(), now()) returning id`,
);
const userId = Number(user.id);

const FOLDERS = Array.from({ length: 20 }, (_, i) => `bf${String(i).padStart(8, '0')}`);
await insertRows(
  client,
  'folder',
  ['id', 'user_id', 'name', 'created_at'],
  FOLDERS.map((id, i) => [id, userId, `Folder ${i}`, new Date()]),
);
const TAGS = ['reading', 'work', 'ideas', '学习', '研究', '読書', 'later', 'quotes'];
const FLOWS = [Flow.inbox, Flow.inbox, Flow.later, Flow.shortlist, Flow.archive];
// A note's own highlights follow it within its 37 minutes, so the newest note is one spacing old.
const newest = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS - NOTE_SPACING_MS;
const base = newest - (NOTES - 1) * NOTE_SPACING_MS;
const noteCreated = (i: number) => new Date(base + i * NOTE_SPACING_MS);
const noteIds: string[] = [];
const noteColumns = [
  'id',
  'user_id',
  'url',
  'url_hash',
  'title',
  'excerpt',
  'flow',
  'trashed_at',
  'tags',
  'clip_status',
  'highlight_count',
  'created_at',
  'updated_at',
  'search_vector',
  'folder_id',
];
for (let from = 0; from < NOTES; from += NOTE_CHUNK) {
  const noteRows: unknown[][] = [];
  const contentRows: unknown[][] = [];
  for (let i = from; i < Math.min(NOTES, from + NOTE_CHUNK); i++) {
    const id = `bp${String(i).padStart(8, '0')}`;
    noteIds.push(id);
    const language = languageFor(random);
    const title = sentence(random, language).slice(0, 80);
    const text = Array.from({ length: 12 }, () => sentence(random, language)).join('\n\n');
    const created = noteCreated(i);
    const tags = random() < 0.6 ? [TAGS[Math.floor(random() * TAGS.length)] as string] : [];
    const trashed = random() < 0.02 ? created : null;
    noteRows.push([
      id,
      userId,
      `https://bench.example/${i}`,
      id.padEnd(64, '0'),
      title,
      text.slice(0, 200),
      FLOWS[i % FLOWS.length],
      trashed,
      `{${tags.map((t) => `"${t}"`).join(',')}}`,
      ClipStatus.done,
      0,
      created,
      created,
      tsvectorLiteral(title, text),
      i % 2 === 0 ? FOLDERS[(i / 2) % FOLDERS.length] : null,
    ]);
    contentRows.push([id, `<p>${text}</p>`, text, created]);
  }
  await insertRows(client, 'note', noteColumns, noteRows, { search_vector: '::tsvector', tags: '::text[]' });
  await insertRows(client, 'note_content', ['note_id', 'content_html', 'text', 'updated_at'], contentRows);
}
console.log(`notes: ${NOTES} in ${((performance.now() - started) / 1000).toFixed(1)} s`);

const highlightRows: unknown[][] = [];
// Each note's highlights, for its highlights_vector (what search-index.ts indexNoteHighlights writes).
const highlightsOfNote: string[][] = Array.from({ length: NOTES }, () => []);
// Each insert's triggers would recount the tags and the highlights of every note it touches (a
// rewrite of ~20,000 note rows a chunk); one statement each does it below.
const RECOUNTED_BELOW = ['note_highlight_tags_insert', 'highlight_count_insert'];
for (const t of RECOUNTED_BELOW) await client.query(`alter table highlight disable trigger ${t}`);
for (let i = 0; i < HIGHLIGHTS; i++) {
  const noteIndex = Math.floor(random() * NOTES);
  const text = sentence(random, languageFor(random));
  const annotation = random() < 0.2 ? sentence(random, languageFor(random)) : null;
  highlightsOfNote[noteIndex]?.push(text, ...(annotation ? [annotation] : []));
  // Within its note's 37 minutes, except a few written in the last day on an older note.
  const created =
    i % RECENT_HIGHLIGHT_EVERY === RECENT_HIGHLIGHT_EVERY - 1
      ? new Date(newest - (Math.floor(i / RECENT_HIGHLIGHT_EVERY) % 1380) * MINUTE_MS)
      : new Date(noteCreated(noteIndex).getTime() + (i % 2220) * 1000);
  const tags = random() < 0.3 ? [TAGS[Math.floor(random() * TAGS.length)] as string] : [];
  highlightRows.push([
    `bn${String(i).padStart(10, '0')}`,
    userId,
    noteIds[noteIndex],
    CoreType.highlight,
    text,
    1 + (i % 6),
    1,
    annotation,
    `{${tags.map((t) => `"${t}"`).join(',')}}`,
    Math.floor(random() * 5000),
    created,
    created,
    tsvectorLiteral(text, annotation),
  ]);
  if (highlightRows.length === 20_000 || i === HIGHLIGHTS - 1) {
    await insertRows(
      client,
      'highlight',
      [
        'id',
        'user_id',
        'note_id',
        'core_type',
        'text',
        'slot_id',
        'style',
        'annotation',
        'tags',
        'position_start',
        'created_at',
        'updated_at',
        'search_vector',
      ],
      highlightRows.splice(0),
      { search_vector: '::tsvector', tags: '::text[]' },
    );
  }
}
for (let from = 0; from < NOTES; from += 2000) {
  const params: unknown[] = [];
  const values = noteIds.slice(from, from + 2000).map((id, k) => {
    params.push(id, tsvectorLiteral(...(highlightsOfNote[from + k] ?? [])));
    return `($${params.length - 1}, $${params.length}::tsvector)`;
  });
  await client.query(
    `update note set highlights_vector = v.vec from (values ${values.join(',')}) v(id, vec) where note.id = v.id`,
    params,
  );
}
await client.query(
  `update note p set highlight_count = c.n from (select note_id, count(*) n from highlight group by note_id) c where c.note_id = p.id`,
);
for (const t of RECOUNTED_BELOW) await client.query(`alter table highlight enable trigger ${t}`);
await client.query(
  `update note p set highlight_tags = t.tags from (select note_id, array_agg(distinct x order by x) tags
     from highlight cross join unnest(tags) x group by note_id) t where t.note_id = p.id`,
);
await client.query('vacuum analyze');
await client.end();
console.log(
  `seeded ${NOTES} notes and ${HIGHLIGHTS} highlights for user ${userId} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
