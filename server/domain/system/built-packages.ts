import fs from 'node:fs';
import path from 'node:path';
import type { PluginTool } from '../../../src/schemas/system.ts';

/** Where the builds write the packages this server offers for download (`/downloads/…`). */
export const PACKAGES_DIST_DIR = path.resolve(import.meta.dirname, '../../../dist');
/** `npm run build:extension`'s output (extension/build.ts). */
export const EXTENSION_DIST_DIR = path.join(PACKAGES_DIST_DIR, 'extension');
/** `npm run build:plugins`'s output (plugins/build.ts). */
export const PLUGIN_DIST_DIR = path.join(PACKAGES_DIST_DIR, 'plugins');

/** The packages built here; Edge installs the Chrome one. */
export const EXTENSION_PACKAGES = {
  chrome: 'margin-chrome.zip',
  edge: 'margin-chrome.zip',
  firefox: 'margin-firefox.zip',
} as const;
export type ExtensionPackage = keyof typeof EXTENSION_PACKAGES;

/**
 * Each note-tool plugin's package under `plugins/` of the packages folder: its zip, the same
 * files unpacked, and the file in it that names its version.
 */
export const PLUGIN_PACKAGES: Record<PluginTool, { zip: string; folder: string; versionFile: string }> = {
  obsidian: { zip: 'margin-obsidian.zip', folder: 'margin-obsidian', versionFile: 'manifest.json' },
  logseq: { zip: 'margin-logseq.zip', folder: 'margin-logseq', versionFile: 'package.json' },
};

/** The browsers whose package has been built, so the plugins page offers only real downloads. */
export function builtExtensionPackages(packagesDir: string): ExtensionPackage[] {
  return (Object.keys(EXTENSION_PACKAGES) as ExtensionPackage[]).filter((browser) =>
    fs.existsSync(path.join(packagesDir, 'extension', EXTENSION_PACKAGES[browser])),
  );
}

/** A built plugin's version, as its own manifest says (what Obsidian or Logseq will show), or null. */
export function builtPluginVersion(packagesDir: string, tool: PluginTool): string | null {
  const { zip, folder, versionFile } = PLUGIN_PACKAGES[tool];
  const dir = path.join(packagesDir, 'plugins');
  if (!fs.existsSync(path.join(dir, zip))) return null;
  try {
    const { version } = JSON.parse(fs.readFileSync(path.join(dir, folder, versionFile), 'utf8')) as {
      version?: unknown;
    };
    return typeof version === 'string' ? version : null;
  } catch {
    return null;
  }
}

/** The plugins whose package has been built, with their versions. */
export function builtPluginPackages(packagesDir: string): { tool: PluginTool; version: string }[] {
  return (Object.keys(PLUGIN_PACKAGES) as PluginTool[]).flatMap((tool) => {
    const version = builtPluginVersion(packagesDir, tool);
    return version ? [{ tool, version }] : [];
  });
}
