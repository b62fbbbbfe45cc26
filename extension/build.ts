// Builds the browser extension: typechecks extension/ (its own tsconfig), bundles the background,
// the content script and the popup with esbuild, and writes an unpacked folder and a zip for each
// browser under dist/extension/ (the app serves the zips at /downloads/extension/<browser>).
//   npm run build:extension [-- --out <dir>] [-- --no-typecheck]
import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { writeZip } from '../plugins/build.ts';
import { EXTENSION_DIST_DIR, EXTENSION_PACKAGES } from '../server/domain/system/built-packages.ts';
import { EXTENSION_VERSION } from '../src/schemas/extension.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const EXTENSION = join(ROOT, 'extension');
const LOCALES = join(ROOT, 'src/i18n/locales');
/** Firefox needs an id of its own for storage and for signing. */
const GECKO_ID = 'extension@margin.example';
const ICON_SIZES = [16, 32, 48, 128] as const;

type Browser = 'chrome' | 'firefox';
type Files = Record<string, string | Buffer>;

/** Chrome's `_locales` folder names for the app's languages (it knows pt only by country). */
const CHROME_LOCALE_DIRS: Record<string, string[]> = {
  pt: ['pt_BR', 'pt_PT'],
  'zh-CN': ['zh_CN'],
  'zh-TW': ['zh_TW'],
};

function typecheck(): void {
  const tsc = join(ROOT, 'node_modules/.bin/tsc');
  const result = spawnSync(tsc, ['-p', join(EXTENSION, 'tsconfig.json'), '--noEmit'], { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`extension/ does not typecheck:\n${result.stdout}${result.stderr}${result.error ?? ''}`);
  }
}

/** Every `extension.*` string of each language, flattened to its full key. */
async function extensionMessages(): Promise<Record<string, Record<string, string>>> {
  const messages: Record<string, Record<string, string>> = {};
  for (const file of await readdir(LOCALES)) {
    const locale = JSON.parse(await readFile(join(LOCALES, file), 'utf8')) as {
      extension?: Record<string, string>;
    };
    messages[file.replace(/\.json$/, '')] = Object.fromEntries(
      Object.entries(locale.extension ?? {}).map(([key, value]) => [`extension.${key}`, value]),
    );
  }
  return messages;
}

async function bundle(browser: Browser, messages: Record<string, Record<string, string>>): Promise<Files> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: {
      background: join(EXTENSION, 'background.ts'),
      content: join(EXTENSION, 'content/index.ts'),
      'popup/popup': join(EXTENSION, 'popup/popup.ts'),
    },
    bundle: true,
    write: false,
    outdir: '/',
    format: 'iife',
    platform: 'browser',
    target: ['chrome120', 'firefox140'],
    minify: true,
    loader: { '.css': 'text' },
    define: {
      __MARKET__: JSON.stringify(browser),
      __VERSION__: JSON.stringify(EXTENSION_VERSION),
      __MESSAGES__: JSON.stringify(messages),
    },
    legalComments: 'none',
    logLevel: 'silent',
  });
  return Object.fromEntries(result.outputFiles.map((file) => [file.path.slice(1), file.text]));
}

function manifest(browser: Browser) {
  const icons = Object.fromEntries(ICON_SIZES.map((size) => [size, `icons/${size}.png`]));
  return {
    manifest_version: 3,
    name: '__MSG_name__',
    description: '__MSG_description__',
    default_locale: 'en',
    version: EXTENSION_VERSION,
    icons,
    action: { default_popup: 'popup/popup.html', default_title: '__MSG_name__', default_icon: icons },
    background: browser === 'chrome' ? { service_worker: 'background.js' } : { scripts: ['background.js'] },
    permissions: ['storage', 'unlimitedStorage', 'contextMenus', 'alarms', 'activeTab'],
    // The rendered page is read where the user saves or highlights it, and the Margin server is
    // whatever the user (self-hosting) types in.
    host_permissions: ['http://*/*', 'https://*/*'],
    content_scripts: [
      {
        matches: ['http://*/*', 'https://*/*'],
        js: ['content.js'],
        run_at: 'document_idle',
        all_frames: true,
      },
    ],
    ...(browser === 'firefox'
      ? {
          browser_specific_settings: {
            gecko: {
              id: GECKO_ID,
              strict_min_version: '140.0',
              // Margin's own server is the only place data goes, and the user chooses it.
              data_collection_permissions: { required: ['none'] },
            },
            // Firefox for Android reads the data-collection key from 142 on.
            gecko_android: { strict_min_version: '142.0' },
          },
        }
      : { minimum_chrome_version: '120' }),
  };
}

/** `_locales/<dir>/messages.json` for the manifest's name and description. */
function manifestLocales(messages: Record<string, Record<string, string>>): Files {
  const files: Files = {};
  const english = messages.en ?? {};
  for (const [language, strings] of Object.entries(messages)) {
    const entry = (key: string) => ({
      message: strings[`extension.${key}`] ?? english[`extension.${key}`] ?? '',
    });
    const content = JSON.stringify({ name: entry('name'), description: entry('description') }, null, 2);
    for (const dir of CHROME_LOCALE_DIRS[language] ?? [language])
      files[`_locales/${dir}/messages.json`] = content;
  }
  return files;
}

async function packageFiles(
  browser: Browser,
  messages: Record<string, Record<string, string>>,
): Promise<Files> {
  const files: Files = {
    ...(await bundle(browser, messages)),
    'manifest.json': JSON.stringify(manifest(browser), null, 2),
    'popup/popup.html': await readFile(join(EXTENSION, 'popup/popup.html'), 'utf8'),
    // One file for the popup: Margin's colours, then its own rules.
    'popup/popup.css':
      (await readFile(join(EXTENSION, 'lib/theme.css'), 'utf8')) +
      (await readFile(join(EXTENSION, 'popup/popup.css'), 'utf8')),
    ...manifestLocales(messages),
  };
  for (const size of ICON_SIZES)
    files[`icons/${size}.png`] = await readFile(join(EXTENSION, `icons/${size}.png`));
  return files;
}

/** Builds both packages into `outDir`: `chrome/`, `firefox/` (unpacked) and their zips. */
export async function buildExtension(outDir = EXTENSION_DIST_DIR, options = { typecheck: true }) {
  if (options.typecheck) typecheck();
  const messages = await extensionMessages();
  await mkdir(outDir, { recursive: true });
  const built: Record<Browser, { dir: string; zip: string }> = {} as never;
  for (const browser of ['chrome', 'firefox'] as const) {
    const files = await packageFiles(browser, messages);
    const dir = join(outDir, browser);
    await rm(dir, { recursive: true, force: true });
    for (const [name, content] of Object.entries(files)) {
      await mkdir(dirname(join(dir, name)), { recursive: true });
      await writeFile(join(dir, name), content);
    }
    const zip = join(outDir, EXTENSION_PACKAGES[browser]);
    await writeZip(zip, files);
    built[browser] = { dir, zip };
  }
  return built;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const out = args.includes('--out') ? args[args.indexOf('--out') + 1] : undefined;
  const built = await buildExtension(out, { typecheck: !args.includes('--no-typecheck') });
  for (const { zip } of Object.values(built)) console.log(`wrote ${zip}`);
}
