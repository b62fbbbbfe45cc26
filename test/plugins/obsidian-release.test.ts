// What Obsidian's community store and BRAT read of a release: the manifest's fields, and a
// versions.json mapping the manifest's version to its minAppVersion (checked by the build too).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { obsidianReleaseProblems } from '../../plugins/build.ts';

const read = async (path: string) =>
  JSON.parse(await readFile(join(import.meta.dirname, '../../plugins', path), 'utf8')) as Record<
    string,
    unknown
  >;

describe("the Obsidian plugin's release files", () => {
  test('manifest.json and versions.json agree, and the Logseq package has the same version', async () => {
    const [manifest, versions, logseq] = await Promise.all([
      read('obsidian/manifest.json'),
      read('obsidian/versions.json'),
      read('logseq/plugin.json'),
    ]);
    expect(obsidianReleaseProblems(manifest, versions)).toEqual([]);
    expect(logseq.version).toBe(manifest.version);
  });

  test('a version versions.json does not know, or a missing field, is a problem', async () => {
    const manifest = await read('obsidian/manifest.json');
    expect(obsidianReleaseProblems({ ...manifest, version: '9.9.9' }, { '0.1.0': '1.5.0' })).toEqual([
      `versions.json: 9.9.9 must map to the manifest's minAppVersion ${manifest.minAppVersion}`,
    ]);
    const { isDesktopOnly: _, ...withoutField } = manifest;
    expect(
      obsidianReleaseProblems(withoutField, { [String(manifest.version)]: manifest.minAppVersion }),
    ).toEqual(['manifest.json: isDesktopOnly must be a boolean']);
  });
});
