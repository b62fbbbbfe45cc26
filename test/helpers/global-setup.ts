import { createOrm, migrate } from '../../server/db/orm.ts';
import { databaseUrl, TEMPLATE_DB, withAdmin } from './db.ts';

/**
 * Builds the migrated template database once per run; each test file then gets its own copy
 * (CREATE DATABASE … TEMPLATE is a file copy, far faster than migrating again).
 */
export default async function setup(): Promise<() => Promise<void>> {
  await withAdmin(async (c) => {
    await c.query(`drop database if exists ${TEMPLATE_DB} with (force)`);
    await c.query(
      `create database ${TEMPLATE_DB} encoding 'UTF8' lc_collate 'C.UTF-8' lc_ctype 'C.UTF-8' template template0`,
    );
  });
  const orm = await createOrm(databaseUrl(TEMPLATE_DB));
  try {
    await migrate(orm);
  } finally {
    await orm.close();
  }
  return async () => {
    // Drop databases left by test files that were killed before their own cleanup.
    await withAdmin(async (c) => {
      const { rows } = await c.query<{ datname: string }>(
        "select datname from pg_database where datname like 'margin_t\\_%'",
      );
      for (const { datname } of rows) await c.query(`drop database if exists ${datname} with (force)`);
    });
  };
}
