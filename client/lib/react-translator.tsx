import type { TFunction } from 'i18next';
import { cloneElement, type ReactElement, type ReactNode, useMemo, useSyncExternalStore } from 'react';
import { i18n } from '../i18n.ts';
import type { Options } from './translator.ts';

// What the app uses of react-i18next, over the app's own translator (translator.ts): the build
// resolves 'react-i18next' here (vite-chunks.ts), so components import it as before. Components
// render again when the language or its words change.

const subscribe = (listener: () => void) => i18n.subscribe(listener);
const version = () => i18n.version;

export function useTranslation(): { t: TFunction; i18n: typeof i18n; ready: true } {
  const current = useSyncExternalStore(subscribe, version);
  // A new `t` for each change, as react-i18next gives, so memos and effects on it follow.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `current` is what makes a new one
  return useMemo(() => {
    const t = ((key: string, options?: Options) => i18n.translate(key, options)) as unknown as TFunction;
    return { t, i18n, ready: true };
  }, [current]);
}

const TAG = /<(\/?)([A-Za-z0-9]+)\s*(\/?)>/g;

/** The translated text with its `<name>…</name>` and `<name/>` tags drawn as `components[name]`. */
function withComponents(text: string, components: Record<string, ReactElement>): ReactNode[] {
  const root: ReactNode[] = [];
  const open: { name: string; children: ReactNode[] }[] = [];
  const into = () => open.at(-1)?.children ?? root;
  let at = 0;
  let key = 0;
  for (const match of text.matchAll(TAG)) {
    const [whole, closing, name = '', selfClosing] = match;
    if (match.index > at) into().push(text.slice(at, match.index));
    at = match.index + whole.length;
    const element = components[name];
    if (closing) {
      const done = open.pop();
      if (!done) continue;
      const made = components[done.name];
      into().push(made ? cloneElement(made, { key: key++ }, ...done.children) : done.children);
    } else if (selfClosing) {
      if (element) into().push(cloneElement(element, { key: key++ }));
    } else {
      open.push({ name, children: [] });
    }
  }
  if (at < text.length) into().push(text.slice(at));
  // Tags left open keep their words.
  while (open.length) root.push(...(open.pop()?.children ?? []));
  return root;
}

export function Trans({
  i18nKey,
  values,
  components = {},
}: {
  i18nKey: string;
  values?: Record<string, unknown>;
  components?: Record<string, ReactElement>;
}) {
  useTranslation();
  return <>{withComponents(i18n.translate(i18nKey, values), components)}</>;
}
