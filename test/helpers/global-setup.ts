import { randomBytes } from 'node:crypto';
import { createOrm, migrate } from '../../server/db/orm.ts';
import { DATABASE_SETTINGS, databaseUrl, templateDb, testDbPrefix, withAdmin } from './db.ts';
import { waitFor } from './wait.ts';

/**
 * Builds the migrated template database once per run; each test file then gets its own copy
 * (CREATE DATABASE … TEMPLATE is a file copy, far faster than migrating again).
 */
export default async function setup(): Promise<() => Promise<void>> {
  process.env.MARGIN_TEST_RUN ??= randomBytes(4).toString('hex');
  const template = templateDb();
  await withAdmin(async (c) => {
    await c.query(`drop database if exists ${template} with (force)`);
    await c.query(`create database ${template} ${DATABASE_SETTINGS}`);
  });
  const orm = await createOrm(databaseUrl(template));
  try {
    await migrate(orm);
  } finally {
    await orm.close();
  }
  return async () => {
    // This run's databases, including any left by test files that were killed mid-way.
    await withAdmin(async (c) => {
      // A worker ends without waiting for its last copy or drop (test/helpers/db.ts): once those
      // statements finish, every database they made is listed.
      await waitFor(
        async () => {
          const { rows } = await c.query<{ running: number }>(
            "select count(*)::int as running from pg_stat_activity where pid <> pg_backend_pid() and state = 'active' and query like $1",
            [`%database %${testDbPrefix()}%`],
          );
          return rows[0]?.running === 0 ? true : undefined;
        },
        60_000,
        "this run's database copies and drops to finish",
      );
      const { rows } = await c.query<{ datname: string }>(
        'select datname from pg_database where datname like $1 or datname = $2',
        [`${testDbPrefix().replace(/_/g, '\\_')}%`, template],
      );
      for (const { datname } of rows) await c.query(`drop database if exists ${datname} with (force)`);
    });
  };
}
