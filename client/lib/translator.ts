import type { TFunction } from 'i18next';

// The part of i18next the app uses, in a few hundred bytes instead of i18next's 15 KB gzipped on
// the home route: nested keys, `{{name}}` values, plurals by `count` (`_zero` for 0 where a
// language has it, then Intl.PluralRules' category: i18next's v4 JSON), a fallback language,
// `defaultValue`, and a change event. The React side is react-translator.tsx.

/** A language's words, as the locale files nest them. */
export type Words = { [key: string]: string | Words };

export type Options = { count?: unknown; defaultValue?: unknown; [name: string]: unknown };

function lookup(words: Words | undefined, key: string): string | undefined {
  let node: string | Words | undefined = words;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

const pluralRules = new Map<string, Intl.PluralRules>();

function pluralOf(language: string, count: number): string {
  let rules = pluralRules.get(language);
  if (!rules) {
    rules = new Intl.PluralRules(language);
    pluralRules.set(language, rules);
  }
  return rules.select(count);
}

const VALUE = /\{\{\s*([^{}]+?)\s*\}\}/g;

export class Translator {
  language = '';
  readonly fallback: string;
  private readonly bundles = new Map<string, Words>();
  private readonly languageListeners = new Set<(language: string) => void>();
  private readonly changeListeners = new Set<() => void>();
  /** Counts changes of the language or its words, for React's useSyncExternalStore. */
  version = 0;

  constructor(fallback: string) {
    this.fallback = fallback;
  }

  private resolve(language: string, key: string, count: unknown): string | undefined {
    const words = this.bundles.get(language);
    if (typeof count === 'number') {
      const plural =
        (count === 0 ? lookup(words, `${key}_zero`) : undefined) ??
        lookup(words, `${key}_${pluralOf(language, count)}`);
      if (plural !== undefined) return plural;
    }
    return lookup(words, key);
  }

  /** The words of `key` with its values; the key itself when no language has it. */
  translate(key: string, options?: Options): string {
    const found =
      this.resolve(this.language, key, options?.count) ??
      (this.language === this.fallback ? undefined : this.resolve(this.fallback, key, options?.count));
    const text = found ?? (typeof options?.defaultValue === 'string' ? options.defaultValue : key);
    if (!options) return text;
    return text.replace(VALUE, (whole, name: string) => (name in options ? String(options[name]) : whole));
  }

  /** `translate` as i18next's `t` is typed. */
  readonly t = ((key: string, options?: Options) => this.translate(key, options)) as unknown as TFunction;

  /** Adds whole namespaces (`{ settings: {…} }`) to a language's words. */
  addResourceBundle(language: string, words: Words): void {
    this.bundles.set(language, { ...this.bundles.get(language), ...words });
    this.changed();
  }

  setLanguage(language: string): void {
    if (language === this.language) return;
    this.language = language;
    for (const listener of this.languageListeners) listener(language);
    this.changed();
  }

  onLanguageChanged(listener: (language: string) => void): void {
    this.languageListeners.add(listener);
  }

  /** Calls `listener` after each change of the language or of its words; returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  private changed(): void {
    this.version++;
    for (const listener of this.changeListeners) listener();
  }
}
