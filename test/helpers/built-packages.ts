import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildExtension } from '../../extension/build.ts';
import { buildPlugins } from '../../plugins/build.ts';

/**
 * The plugin and extension packages built as `npm start` builds them, into a folder of the test
 * file's own laid out as `dist/` is (`plugins/`, `extension/`): point `config.packagesDir` at it.
 * No type check: that is the typecheck suite's.
 */
export async function buildPackages(parts: { extension: boolean }) {
  const dir = await mkdtemp(join(tmpdir(), 'margin-packages-'));
  await buildPlugins(join(dir, 'plugins'), { typecheck: false });
  if (parts.extension) await buildExtension(join(dir, 'extension'), { typecheck: false });
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
