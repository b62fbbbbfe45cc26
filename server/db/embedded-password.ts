import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { log } from '../log.ts';
import { EmbeddedPostgresError } from './embedded-access.ts';

/** The role Margin uses in its embedded PostgreSQL. */
export const EMBEDDED_USER = 'margin';
/** The fixed password data directories made before passwords were generated per install. */
export const LEGACY_PASSWORD = 'margin';
/** Beside the cluster (`DATA_DIR/pg`), in a directory our process owns even when PostgreSQL runs as `postgres`. */
export const PASSWORD_FILE = 'pg-password';

/** 32 random bytes as hex: URL-safe, so it goes into the connection URL as it is. */
export const newPassword = (): string => randomBytes(32).toString('hex');

/**
 * The password file's lines: the first is the role's password; any further ones are passwords
 * it may still have while a change is under way (a start that stopped between writing this
 * file and changing the role). Empty when there is no file.
 */
async function readPasswords(file: string): Promise<string[]> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const { mode } = await fs.stat(file);
  if ((mode & 0o077) !== 0) {
    log.warn('the embedded PostgreSQL password file was readable by others: made it 0600', { file });
    await fs.chmod(file, 0o600);
  }
  return text.split('\n').filter(Boolean);
}

/** Replaces the file at once (a new 0600 file renamed over it), so a crash leaves the old or the new. */
export async function writePasswords(file: string, passwords: string[]): Promise<void> {
  const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await fs.open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(`${passwords.join('\n')}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(temporary, file);
}

/**
 * PostgreSQL's SCRAM-SHA-256 verifier for `password` (as `password_encryption` would store it),
 * so the plain password never appears in a statement the server could log. The password is
 * ASCII, which SASLprep leaves as it is.
 */
function scramVerifier(password: string, salt = randomBytes(16), iterations = 4096): string {
  const salted = pbkdf2Sync(password, salt, iterations, 32, 'sha256');
  const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest();
  const storedKey = createHash('sha256').update(hmac(salted, 'Client Key')).digest();
  const serverKey = hmac(salted, 'Server Key');
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}

/** A client of the embedded server as our role, or undefined when PostgreSQL refuses this password. */
async function connectAs(port: number, password: string): Promise<pg.Client | undefined> {
  const client = new pg.Client({
    host: '127.0.0.1',
    port,
    user: EMBEDDED_USER,
    password,
    database: 'postgres',
  });
  try {
    await client.connect();
    return client;
  } catch (err) {
    await client.end().catch(() => {});
    // invalid_password; anything else (not running, a full disk) is for the caller to see.
    if ((err as { code?: string }).code === '28P01') return undefined;
    throw err;
  }
}

/**
 * Connects to the running embedded server with the password it has (the file's, or the legacy
 * fixed one), makes the file's first password the role's if it is not yet, and creates the
 * database when it is missing. Returns the role's password.
 *
 * A data directory from before generated passwords has no file: a new password is written
 * first, then set with ALTER ROLE, so a start that stops in between still gets in with the
 * legacy password next time and finishes the change.
 */
export async function settleEmbeddedPassword(
  dataDir: string,
  port: number,
  database: string,
): Promise<string> {
  const file = path.join(dataDir, PASSWORD_FILE);
  let passwords = await readPasswords(file);
  if (passwords.length === 0) {
    passwords = [newPassword()];
    await writePasswords(file, passwords);
  }
  const [target = '', ...previous] = passwords;
  const candidates = [...new Set([target, ...previous, LEGACY_PASSWORD])];
  let client: pg.Client | undefined;
  let current = '';
  for (const candidate of candidates) {
    client = await connectAs(port, candidate);
    if (client) {
      current = candidate;
      break;
    }
  }
  if (!client) {
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL in ${path.join(dataDir, 'pg')} refuses the password in ${file}. ` +
        `If that file was lost or replaced, restore it; for a fresh database instead, move ` +
        `${path.join(dataDir, 'pg')} away (its data goes with it).`,
    );
  }
  try {
    if (current !== target) {
      const verifier = scramVerifier(target);
      await client.query(
        `alter role ${client.escapeIdentifier(EMBEDDED_USER)} password ${client.escapeLiteral(verifier)}`,
      );
      log.info(
        current === LEGACY_PASSWORD
          ? 'embedded PostgreSQL: replaced the fixed password with a generated one'
          : 'embedded PostgreSQL: set the generated password',
        { file },
      );
    }
    if (passwords.length > 1) await writePasswords(file, [target]);
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (!rowCount) await client.query(`create database ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
  return target;
}
