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

/** A fresh, migrated database for one test file, copied from the template global-setup built. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `${testDbPrefix()}${randomBytes(4).toString('hex')}`;
  await withAdmin((c) => c.query(`create database ${name} template ${templateDb()}`));
  return {
    name,
    url: databaseUrl(name),
    drop: () => withAdmin((c) => c.query(`drop database if exists ${name} with (force)`)).then(() => {}),
  };
}
