import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Request } from 'express';
import type { BootData } from '../src/boot-data.ts';
import { isLanguage, type Language } from '../src/constants.ts';
import type { Region } from '../src/enums.ts';
import { pickLanguage } from '../src/regions.ts';
import { errorFields, log } from './log.ts';

/** client/ssr/render-home.tsx, as its Vite SSR build exports it. */
type RenderHome = (boot: BootData, language: string, region: Region) => Promise<string>;

/** Where `vite build --ssr` puts the renderer of a client build (vite.config.ts). */
export function firstScreenRendererFile(distDir: string): string {
  return `${distDir}.ssr/render-home.js`;
}

/**
 * The language the client's first render reads in with nothing stored on the device: the
 * account's when it has one (client/features/i18n/account-language.ts), else the browser's.
 */
function firstScreenLanguage(me: BootData['me'], req: Request, region: Region): Language {
  if (me?.language && isLanguage(me.language)) return me.language;
  return pickLanguage(region, null, req.acceptsLanguages());
}

export interface FirstScreen {
  language: Language;
  /** The markup of #root, to be hydrated (client/main.tsx). */
  html: string;
}

/**
 * The signed-in home list's first screen, server-rendered into index.html from its boot data;
 * undefined without a home list, or when the build has no renderer (the client renders then).
 */
export function firstScreenRenderer(distDir: string, region: Region) {
  const file = firstScreenRendererFile(distDir);
  let renderer: Promise<RenderHome | undefined> | undefined;
  const load = () => {
    renderer ??= fs.existsSync(file)
      ? import(pathToFileURL(file).href).then(
          (module: { renderHome: RenderHome }) => module.renderHome,
          (error: unknown) => {
            log.error('the first-screen renderer did not load', errorFields(error));
            return undefined;
          },
        )
      : Promise.resolve(undefined);
    return renderer;
  };
  return async (req: Request, boot: BootData): Promise<FirstScreen | undefined> => {
    if (!boot.homeList) return undefined;
    const render = await load();
    if (!render) return undefined;
    const language = firstScreenLanguage(boot.me, req, region);
    return { language, html: await render(boot, language, region) };
  };
}
