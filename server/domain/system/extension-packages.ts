import fs from 'node:fs';
import path from 'node:path';

/** Where `npm run build:extension` writes the packages (extension/build.ts). */
export const EXTENSION_DIST_DIR = path.resolve(import.meta.dirname, '../../../dist/extension');

/** The packages built here; Edge installs the Chrome one. */
export const EXTENSION_PACKAGES = {
  chrome: 'margin-chrome.zip',
  edge: 'margin-chrome.zip',
  firefox: 'margin-firefox.zip',
} as const;
export type ExtensionPackage = keyof typeof EXTENSION_PACKAGES;

/** The browsers whose package has been built, so the plugins page offers only real downloads. */
export function builtExtensionPackages(dir = EXTENSION_DIST_DIR): ExtensionPackage[] {
  return (Object.keys(EXTENSION_PACKAGES) as ExtensionPackage[]).filter((browser) =>
    fs.existsSync(path.join(dir, EXTENSION_PACKAGES[browser])),
  );
}
