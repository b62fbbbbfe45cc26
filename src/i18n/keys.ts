/** Flattens a nested translation resource into `a.b.c → text`. */
export function flattenMessages(resource: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (resource && typeof resource === 'object') {
    for (const [key, value] of Object.entries(resource)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (typeof value === 'string') out.set(path, value);
      else for (const [k, v] of flattenMessages(value, path)) out.set(k, v);
    }
  }
  return out;
}

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** i18next plural keys (`x_one`, `x_other`) grouped under their base key (`x`). */
export function pluralBase(key: string): string | null {
  return PLURAL_SUFFIX.test(key) ? key.replace(PLURAL_SUFFIX, '') : null;
}

/** `{{name}}` placeholders and `<tag>` markers a translation must keep. */
export function placeholders(message: string): string[] {
  const found = [...message.matchAll(/\{\{\s*([\w.]+)\s*\}\}|<(\/?\w+)>/g)].map((m) => m[1] ?? `<${m[2]}>`);
  return found.sort();
}
