// A derived value kept by service code has one writer (docs/ARCHITECTURE.md, "Derived state"):
// these tests read the server's and the workers' sources and expect every statement that sets the
// value to be in that writer's file.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

function sources(folder: string): string[] {
  return fs
    .readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(folder, file));
}

/** The files (relative to the repository) whose text matches one of `writes`. */
function writers(writes: RegExp[]): string[] {
  return [...sources('server'), ...sources('jobs')]
    .filter((file) => {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      return writes.some((write) => write.test(text));
    })
    .sort();
}

describe('one writer per derived value', () => {
  test('member level and PRO expiry are set only by writeMembership', () => {
    expect(
      writers([
        /"member_level"\s*=(?!=)/,
        /"pro_expires_at"\s*=(?!=)/,
        /\.(memberLevel|proExpiresAt)\s*=(?!=)/,
        /\b(nativeUpdate|assign|upsert)\([^;]*\b(memberLevel|proExpiresAt)\b/,
      ]).filter((file) => !file.startsWith('server/db/entities/')),
    ).toEqual(['server/domain/membership/grants.ts']);
  });

  test("a note's highlight count is written by no service: its triggers keep it", () => {
    expect(
      writers([
        /"highlight_count"\s*=(?!=)/,
        /\.highlightCount\s*=(?!=)/,
        /\b(nativeUpdate|assign|upsert)\([^;]*\bhighlightCount\b/,
      ]).filter((file) => !file.startsWith('server/db/entities/')),
    ).toEqual([]);
  });
});
