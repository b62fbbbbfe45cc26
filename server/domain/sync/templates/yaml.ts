// YAML scalars for front matter. A JSON string is a valid YAML double-quoted scalar once the
// characters YAML does not allow unescaped (DEL, the C1 controls, the BOM) are escaped too.

export function yamlText(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return JSON.stringify(text).replace(
    /[\u007f-\u009f\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A flow sequence of double-quoted scalars: `["a", "b c"]`, `[]` when empty. */
export function yamlList(items: readonly unknown[]): string {
  return `[${items.map(yamlText).join(', ')}]`;
}

/** `name: value` for a front-matter line: lists as flow sequences, numbers and booleans bare, text quoted. */
export function yamlField(name: string, value: unknown): string {
  const key = name.trim().replace(/:$/, '').trim();
  if (Array.isArray(value)) return `${key}: ${yamlList(value)}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${key}: ${value}`;
  return `${key}: ${yamlText(value)}`;
}
