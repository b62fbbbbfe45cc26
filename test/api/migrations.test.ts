import { afterAll, beforeAll, expect, test } from 'vitest';
import { createOrm, type Orm } from '../../server/db/orm.ts';
import { createEmptyTestDatabase, type TestDatabase } from '../helpers/db.ts';

// Upgrades run on databases full of real rows: each data-moving migration is checked against
// rows written in the shape the migration before it left.
let database: TestDatabase;
let orm: Orm;

beforeAll(async () => {
  database = await createEmptyTestDatabase();
  orm = await createOrm(database.url, { pool: { min: 0, max: 2 } });
});
afterAll(async () => {
  await orm?.close();
  await database?.drop();
});

test('upgrade: highlight ids per owner, unguessable daily ids, unique folder names, one word per concept, daily notes are notes; no row lost', async () => {
  await orm.migrator.up({ to: 'Migration20261121063000_page_notes_vector' });
  const sql = orm.em.getConnection();
  await sql.execute(
    `insert into "user" ("id", "nickname", "account_id", "created_at", "updated_at")
     values (7, 'a', 'MAAAAAAAA1', now(), now()), (8, 'b', 'MAAAAAAAA2', now(), now())`,
  );
  await sql.execute(
    `insert into "note" ("id", "user_id", "kind", "core_type", "text", "daily_date", "version", "created_at", "updated_at")
     values ('daily-7-20260301', 7, 3, 6, 'old day', '2026-03-01', 4, now(), now()),
            ('entryOfTheDay0001', 7, 3, 6, 'an extra entry', '2026-03-01', 1, now(), now()),
            ('sharedClientId01', 7, 1, 6, 'a note', null, 1, now(), now())`,
  );
  await sql.execute(
    `insert into "page" ("id", "user_id", "url", "url_hash", "title", "created_at", "updated_at")
     values ('savedPage0001', 7, 'https://example.com/a', 'hash-a', 'A saved page', now(), now())`,
  );
  await sql.execute(
    `insert into "page_content" ("page_id", "content_html", "text", "updated_at")
     values ('savedPage0001', '<p>Body</p>', 'Body', now())`,
  );
  await sql.execute(
    `insert into "note" ("id", "user_id", "page_id", "kind", "core_type", "text", "version", "created_at", "updated_at")
     values ('highlightOnPage1', 7, 'savedPage0001', 1, 1, 'Body', 1, now(), now())`,
  );

  await sql.execute(
    `insert into "folder" ("id", "user_id", "parent_id", "name", "created_at")
     values ('folderOne0001', 7, null, 'Reading', now() - interval '1 day'),
            ('folderTwo0002', 7, null, 'Reading', now())`,
  );

  await orm.migrator.up();

  // Same-named folders that a race let in keep their pages under numbered names.
  const folders = await sql.execute<{ id: string; name: string }[]>(
    `select "id", "name" from "folder" order by "id"`,
  );
  expect(folders).toEqual([
    { id: 'folderOne0001', name: 'Reading' },
    { id: 'folderTwo0002', name: 'Reading (2)' },
  ]);

  // A saved page is a note, its content the note's content, a passage of it a highlight.
  expect(await sql.execute(`select "id", "title" from "note" where "kind" = 1`)).toEqual([
    { id: 'savedPage0001', title: 'A saved page' },
  ]);
  expect(
    await sql.execute(`select "note_id", "text" from "note_content" where "note_id" = 'savedPage0001'`),
  ).toEqual([{ note_id: 'savedPage0001', text: 'Body' }]);
  expect(await sql.execute(`select "id", "note_id" from "highlight" where "note_id" is not null`)).toEqual([
    { id: 'highlightOnPage1', note_id: 'savedPage0001' },
  ]);

  // Daily notes are notes of kind 3; their Markdown is the note's content.
  const days = await sql.execute<{ id: string; text: string; daily_main: boolean; version: number }[]>(
    `select n."id", c."text", n."daily_main", n."version" from "note" n join "note_content" c on c."note_id" = n."id"
     where n."kind" = 3 order by c."text"`,
  );
  expect(days.map((r) => [r.text, r.daily_main, r.version])).toEqual([
    ['an extra entry', false, 1],
    ['old day', true, 4],
  ]);
  expect(days.find((r) => r.daily_main)?.id).toMatch(/^[0-9a-f]{32}$/);
  expect(days.find((r) => r.text === 'an extra entry')?.id).toBe('entryOfTheDay0001');
  expect(await sql.execute(`select "text" from "highlight" where "note_id" is null`)).toEqual([
    { text: 'a note' },
  ]);
  // The left-nav counts start from the notes already there; daily notes are not counted.
  expect(await sql.execute(`select * from "note_count"`)).toEqual([
    { user_id: '7', live: 1, later: 0, shortlist: 0, archive: 0, untagged: 1, trashed: 0 },
  ]);
  // The same client id under another owner is now a different highlight.
  await sql.execute(
    `insert into "highlight" ("id", "user_id", "core_type", "text", "created_at", "updated_at")
     values ('sharedClientId01', 8, 6, 'b''s note', now(), now())`,
  );
  // One day's own note per user and day.
  await expect(
    sql.execute(
      `insert into "note" ("id", "user_id", "kind", "daily_date", "daily_main", "created_at", "updated_at")
       values ('anotherMainOfDay', 7, 3, '2026-03-01', true, now(), now())`,
    ),
  ).rejects.toThrow(/note_daily_main_unique/);
});
