import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Plugin, UserConfig } from 'vite';
import { FIRST_SCREEN_NAMESPACES } from './client/first-screen-namespaces.ts';

type RolldownOptions = NonNullable<NonNullable<UserConfig['build']>['rolldownOptions']>;
type ChunkingContext = { getModuleInfo(id: string): { importedIds: readonly string[] } | null };

/**
 * Lazy modules the home route loads right after its first render (the list's controls, row
 * toolbar, keyboard and actions). They stay out of the entry, so the first card does not wait
 * for them, but are preloaded beside it instead of waiting for that render to ask for them.
 */
const HOME_ROUTE_LAZY_MODULES = [
  'client/features/notes/ListControls.tsx',
  'client/features/notes/ListKeyboard.tsx',
  'client/features/notes/RowActions.tsx',
  'client/features/notes/note-actions.ts',
];

/** Packages whose modules only define things, so what the app does not use of them can go. */
const PACKAGE_MODULE = /[\\/]node_modules[\\/]/;

const SIDE_EFFECT_FREE_PACKAGES = /[\\/]node_modules[\\/]@trpc[\\/]client[\\/]/;

/**
 * The home route's lazy modules and the app's modules they import, for one chunking pass. Not
 * packages: a package's index names every module of it (react-i18next's Trans too), used or not.
 */
const homeLaterModulesOf = new WeakMap<ChunkingContext, ReadonlySet<string>>();

function homeLaterModules(ctx: ChunkingContext): ReadonlySet<string> {
  let modules = homeLaterModulesOf.get(ctx);
  if (modules) return modules;
  const found = new Set<string>();
  const queue = HOME_ROUTE_LAZY_MODULES.map((module) => path.resolve(import.meta.dirname, module));
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    if (found.has(id) || PACKAGE_MODULE.test(id)) continue;
    found.add(id);
    queue.push(...(ctx.getModuleInfo(id)?.importedIds ?? []));
  }
  modules = found;
  homeLaterModulesOf.set(ctx, modules);
  return modules;
}

/**
 * The home route in two files instead of twenty: everything the entry imports in the entry, and
 * the lazy modules it loads next in one chunk beside it. Gzip compresses one file better than its
 * parts, and the parts' imports and exports of each other go. Lazy screens import what they
 * share with the home route from these two.
 */
export const homeRouteChunking: RolldownOptions = {
  treeshake: { moduleSideEffects: (id) => !SIDE_EFFECT_FREE_PACKAGES.test(id) },
  output: {
    codeSplitting: {
      groups: [
        { name: 'home', tags: ['$initial'], priority: 2 },
        {
          name: (id, ctx) => (homeLaterModules(ctx).has(id) ? 'home-later' : null),
          debugName: 'home-later',
          priority: 1,
        },
      ],
    },
  },
};

/** Modules of packages replaced by smaller ones that do the same on React 19. */
export const leanerModules = [
  {
    find: /^use-sync-external-store\/shim(\/index\.js)?$/,
    replacement: path.resolve(import.meta.dirname, 'client/lib/react-sync-external-store.ts'),
  },
];

/** Preloads the home route's lazy chunk beside the entry (index.html's modulepreload links). */
export function preloadHomeRouteChunks(): Plugin {
  return {
    name: 'margin:preload-home-route-chunks',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        if (!bundle) return;
        const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
        const entry = chunks.find((chunk) => chunk.isEntry);
        const preloaded = new Set([entry?.fileName, ...(entry?.imports ?? [])]);
        const files = new Set<string>();
        for (const module of HOME_ROUTE_LAZY_MODULES) {
          const chunk = chunks.find((c) => c.moduleIds.some((id) => id.endsWith(`/${module}`)));
          // A renamed module must not silently lose its preload.
          if (!chunk) throw new Error(`preloadHomeRouteChunks: no chunk holds ${module}`);
          if (chunk === entry) throw new Error(`preloadHomeRouteChunks: ${module} is in the entry`);
          for (const file of [chunk.fileName, ...chunk.imports]) if (!preloaded.has(file)) files.add(file);
        }
        return [...files].map((file) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

/** A locale file asked for in part (client/locale-chunks.ts): `<language>.json?ns=<part>&lang.json`. */
const LOCALE_PART = /[\\/]src[\\/]i18n[\\/]locales[\\/][\w-]+\.json\?ns=(\w+)&lang\.json$/;

/**
 * Cuts a locale file to the part asked for: `firstScreen` (FIRST_SCREEN_NAMESPACES) or one
 * namespace. Vite's JSON plugin makes a module of what it returns. Without this plugin (the SSR
 * build) the whole file is read, which is correct, only larger.
 */
export function localeParts(): Plugin {
  return {
    name: 'margin:locale-parts',
    enforce: 'pre',
    async load(id) {
      const part = LOCALE_PART.exec(id)?.[1];
      if (!part) return null;
      const file = id.slice(0, id.indexOf('?'));
      this.addWatchFile(file);
      const locale: Record<string, unknown> = JSON.parse(await readFile(file, 'utf8'));
      const namespaces: readonly string[] = part === 'firstScreen' ? FIRST_SCREEN_NAMESPACES : [part];
      return JSON.stringify(
        Object.fromEntries(namespaces.map((namespace) => [namespace, locale[namespace]])),
      );
    },
  };
}
