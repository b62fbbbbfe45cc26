import fs from 'node:fs';
import path from 'node:path';
import type { Request } from 'express';
import i18next, { type TFunction } from 'i18next';
import { isLanguage, LANGUAGE_CODES, type Language } from '../src/constants.ts';

const LOCALES = path.resolve(import.meta.dirname, '../src/i18n/locales');

const resources = Object.fromEntries(
  LANGUAGE_CODES.filter((lang) => fs.existsSync(path.join(LOCALES, `${lang}.json`))).map((lang) => [
    lang,
    { translation: JSON.parse(fs.readFileSync(path.join(LOCALES, `${lang}.json`), 'utf8')) },
  ]),
);

const instance = i18next.createInstance();
await instance.init({
  resources,
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  initAsync: false,
});

/** Server-side translations (mail), from the same resources as the client. */
export function translator(language: string | null | undefined): TFunction {
  return instance.getFixedT(language && isLanguage(language) ? language : 'en');
}

/** The first supported language of an Accept-Language / x-lang header. */
function languageFromHeader(header: string | undefined): Language | null {
  for (const part of (header ?? '').split(',')) {
    const tag = part.split(';')[0]?.trim();
    if (tag && isLanguage(tag)) return tag;
    const base = tag?.split('-')[0];
    if (base === 'zh') return tag?.match(/TW|HK|Hant/i) ? 'zh-TW' : 'zh-CN';
    if (base && isLanguage(base)) return base;
  }
  return null;
}

/**
 * The language a request is answered in, decided here for every front (tRPC, the Open API, the
 * sync fronts, plain routes): what the request asks for (the app's own client sends `x-lang`,
 * the language it shows; other callers `Accept-Language`), else the signed-in account's, else
 * none (English). Our client reads in the account's language once signed in, so its `x-lang`
 * and the account agree.
 */
export function requestLanguage(req: Request, accountLanguage?: string | null): Language | null {
  const asked = languageFromHeader(req.get('x-lang') ?? req.get('accept-language'));
  if (asked) return asked;
  return accountLanguage && isLanguage(accountLanguage) ? accountLanguage : null;
}
