import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { clientBuildState } from '../../server/client-build.ts';
import { postgresUserBlockedAt } from '../../server/db/embedded-access.ts';

const made: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'margin-launcher-'));
  made.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the client build of the single-machine launcher', () => {
  function project(): { root: string; dist: string; touch(file: string, secondsAgo: number): void } {
    const root = tempDir();
    const dist = path.join(root, 'dist/client');
    const touch = (file: string, secondsAgo: number) => {
      const full = path.join(root, file);
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, file);
      const when = new Date(Date.now() - secondsAgo * 1000);
      for (let entry = full; entry !== root; entry = path.dirname(entry)) fs.utimesSync(entry, when, when);
    };
    return { root, dist, touch };
  }

  test('missing, fresh, and stale once a source is newer than the build', () => {
    const { root, dist, touch } = project();
    touch('client/main.tsx', 100);
    touch('src/rules/titles.ts', 100);
    expect(clientBuildState(root, dist)).toBe('missing');
    touch('dist/client/index.html', 50);
    expect(clientBuildState(root, dist)).toBe('fresh');
    touch('src/rules/titles.ts', 10);
    expect(clientBuildState(root, dist)).toBe('stale');
  });
});

describe("the embedded PostgreSQL's reach when started as root", () => {
  test('a directory only its owner may enter blocks the postgres account; an open one does not', () => {
    const closed = tempDir(); // mkdtemp: 0700
    const target = path.join(closed, 'data/pg');
    expect(postgresUserBlockedAt(target)).toBe(closed);
    fs.chmodSync(closed, 0o755);
    expect(postgresUserBlockedAt(target)).toBeUndefined();
  });
});
