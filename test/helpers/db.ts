import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/**
 * Each `vitest` run names its databases after a run id (set by global-setup, inherited by the
 * test processes), so two runs on one machine never drop each other's databases.
 */
export function runId(): string {
  const id = process.env.MARGIN_TEST_RUN;
  if (!id) throw new Error('MARGIN_TEST_RUN is not set: run tests through vitest (global-setup sets it)');
  return id;
}

export const templateDb = () => `margin_tpl_${runId()}`;
export const testDbPrefix = () => `margin_t_${runId()}_`;

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** How every test database is made: UTF-8 with the C.UTF-8 collation, whatever the server's default. */
export const DATABASE_SETTINGS = "encoding 'UTF8' lc_collate 'C.UTF-8' lc_ctype 'C.UTF-8' template template0";

/** A database named with this run's prefix, so global-setup's teardown drops it even if the test is killed. */
async function createNamed(how: string): Promise<TestDatabase> {
  const name = `${testDbPrefix()}${randomBytes(4).toString('hex')}`;
  await withAdmin(async (c) => {
    await c.query(`create database ${name} ${how}`);
    // A commit returns before its WAL reaches the disk: a test database is never recovered after
    // a crash, and what a transaction sees is the same either way.
    await c.query(`alter database ${name} set synchronous_commit = off`);
  });
  return {
    name,
    url: databaseUrl(name),
    drop: () => withAdmin((c) => c.query(`drop database if exists ${name} with (force)`)).then(() => {}),
  };
}

const copyTemplate = () => createNamed(`template ${templateDb()}`);

/**
 * The database the next file of this worker will get, copied while the current file runs: a
 * worker runs its files one after another in one process (isolate: false), and a copy takes
 * 0.2–0.5 s that each file would otherwise wait for before its first test.
 */
let nextDatabase: Promise<TestDatabase> | undefined;

/** A fresh, migrated database for one test file, copied from the template global-setup built. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const ready = nextDatabase ?? copyTemplate();
  nextDatabase = copyTemplate();
  // Its failure is the next caller's, who makes a copy of its own then.
  nextDatabase.catch(() => {});
  return ready.catch(copyTemplate);
}

/**
 * Drops a file's database while the next file runs. DROP DATABASE forces a checkpoint, which
 * takes 0.3–1 s on a machine writing elsewhere; nothing waits for it, and global-setup's
 * teardown drops whatever a worker left when it ended.
 */
export function dropInBackground(database: TestDatabase): void {
  database.drop().catch(() => {});
}

/** An empty database (no migrations run), made like the template, for a test that migrates it itself. */
export function createEmptyTestDatabase(): Promise<TestDatabase> {
  return createNamed(DATABASE_SETTINGS);
}
