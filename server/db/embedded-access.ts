import fs from 'node:fs';
import path from 'node:path';
import { StartupError } from '../lifecycle.ts';

/** The `postgres` account's uid and gids, or undefined where it does not exist yet. */
function postgresAccount(): { uid: number; gids: Set<number> } | undefined {
  let passwd: string;
  let groups: string;
  try {
    passwd = fs.readFileSync('/etc/passwd', 'utf8');
    groups = fs.readFileSync('/etc/group', 'utf8');
  } catch {
    return undefined;
  }
  const entry = passwd.split('\n').find((line) => line.startsWith('postgres:'));
  if (!entry) return undefined;
  const [, , uid, gid] = entry.split(':');
  const gids = new Set([Number(gid)]);
  for (const line of groups.split('\n')) {
    const [, , id, members = ''] = line.split(':');
    if (members.split(',').includes('postgres')) gids.add(Number(id));
  }
  return { uid: Number(uid), gids };
}

/**
 * The first existing directory on the way to `target` that the `postgres` account may not
 * enter (no search permission for it), or undefined when it can reach `target`. An account
 * that does not exist yet is checked as an outsider, which is what a new account is.
 */
export function postgresUserBlockedAt(target: string): string | undefined {
  const account = postgresAccount() ?? { uid: -1, gids: new Set<number>() };
  const parts = path.resolve(target).split(path.sep).filter(Boolean);
  let dir = path.parse(path.resolve(target)).root;
  for (const part of ['', ...parts]) {
    dir = path.join(dir, part);
    const stat = fs.statSync(dir, { throwIfNoEntry: false });
    if (!stat) return undefined;
    if (!stat.isDirectory()) continue;
    const bit =
      stat.uid === account.uid
        ? fs.constants.S_IXUSR
        : account.gids.has(stat.gid)
          ? fs.constants.S_IXGRP
          : fs.constants.S_IXOTH;
    if ((stat.mode & bit) === 0) return dir;
  }
  return undefined;
}

/** Why the embedded PostgreSQL cannot start here, and what to do instead. */
export class EmbeddedPostgresError extends StartupError {}
