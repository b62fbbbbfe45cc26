import type { Liquid } from 'liquidjs';
import { DEFAULT_DATE_FORMAT, formatDate } from './dates.ts';
import { yamlField, yamlList, yamlText } from './yaml.ts';

// The seed product's template filters, on LiquidJS. Liquid passes a filter's arguments in order,
// keyword ones (`| pretty: prefix: "> "`, or the Nunjucks `| pretty({prefix: "> "})` after
// nunjucks.ts) as `[name, value]` pairs; `filterOptions` reads both, so every option
// below can be given by name or, in the listed order, by position.

/** Where a render keeps its time zone for the filters: a symbol, so no template can read it. */
export const FILTER_TIME_ZONE = Symbol('sync template time zone');

interface FilterThis {
  context: { globals: object };
}

function timeZoneOf(filter: FilterThis): string {
  return (filter.context.globals as Record<symbol, string | undefined>)[FILTER_TIME_ZONE] ?? 'UTC';
}

function filterOptions<K extends string>(args: unknown[], names: readonly K[]): Partial<Record<K, unknown>> {
  const options: Partial<Record<K, unknown>> = {};
  let position = 0;
  for (const arg of args) {
    if (Array.isArray(arg) && arg.length === 2 && names.includes(arg[0])) {
      options[arg[0] as K] = arg[1];
    } else if (arg !== null && typeof arg === 'object' && !Array.isArray(arg)) {
      // A variable holding an options object, as Nunjucks templates pass them.
      for (const name of names)
        if (Object.hasOwn(arg, name)) options[name] = (arg as Record<K, unknown>)[name];
    } else if (position < names.length) {
      options[names[position++]!] = arg;
    }
  }
  return options;
}

const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));
const isBlank = (value: unknown): boolean =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/** Non-blank lines, trimmed. */
function textLines(value: unknown): string[] {
  return text(value)
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/** A list option: a list, or (Liquid having no list literals) a comma-separated string. */
function listOption(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(text);
  return isBlank(value) ? [] : text(value).split(',');
}

const colored = (color: unknown, content: string) => `<font color="${text(color)}">${content}</font>`;

/** `date(format)`: a moment/dayjs format (default `YYYY-MM-DD HH:mm`) in the user's time zone. */
function date(this: FilterThis, value: unknown, format?: unknown): string {
  return formatDate(value, isBlank(format) ? DEFAULT_DATE_FORMAT : text(format), timeZoneOf(this));
}

/**
 * `pretty(prefix, trim)`: every non-blank line (trimmed unless `trim` is false) as its own
 * paragraph, each starting with `prefix`; with `> ` the paragraphs stay in one blockquote.
 */
function pretty(value: unknown, ...args: unknown[]): string {
  const { prefix, trim } = filterOptions(args, ['prefix', 'trim'] as const);
  const lead = text(prefix);
  const lines = text(value)
    .split(/\r?\n/)
    .map((line) => (trim === false ? line : line.trim()))
    .filter((line) => line.trim());
  return lines.map((line) => lead + line).join(`\n${lead.trimEnd()}\n`);
}

/**
 * `style1(prefix, anno, color, color_tags, color_line, refid, links)`: the seed's default look
 * of one highlight. Each text line (or the image) starts with `prefix`; `color` is a mark put
 * before the first line in the highlight's colour, or `color_tags` one mark per colour slot;
 * `color_line` colours whole lines; `refid` ends the passage with an Obsidian block id
 * (` ^id`) and `links` with a link back to it; the annotation follows, its first line after
 * `anno`, the others after `prefix`. Ends with a newline, so highlights stay apart in a loop.
 */
function style1(item: unknown, ...args: unknown[]): string {
  const o = filterOptions(args, [
    'prefix',
    'anno',
    'color',
    'color_tags',
    'color_line',
    'refid',
    'links',
  ] as const);
  const h = (item ?? {}) as Record<string, unknown>;
  const prefix = text(o.prefix);
  const lines: string[] = [];
  const imageUrl = text(h.imageurl ?? h.imageUrl);
  if (imageUrl) {
    lines.push(`${prefix}![](${imageUrl})`);
  } else {
    const mark = listOption(o.color_tags)[Number(h.slotid ?? 1) - 1] ?? text(o.color);
    textLines(h.note).forEach((line, i) => {
      if (i === 0 && mark) lines.push(prefix + colored(h.color, mark) + line);
      else lines.push(prefix + (o.color_line ? colored(h.color, line) : line));
    });
  }
  if (lines.length > 0) {
    if (o.refid && h.refid) lines[lines.length - 1] += ` ^${text(h.refid)}`;
    if (o.links && h.refurl) lines[lines.length - 1] += ` [↗](${text(h.refurl)})`;
  }
  textLines(h.annonation ?? h.annotation).forEach((line, i) => {
    const annoPrefix = text(o.anno);
    lines.push(i > 0 ? prefix + line : annoPrefix + (annoPrefix && line.startsWith('#') ? ' ' : '') + line);
  });
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

const GROUP_FORMATS: Record<string, string> = {
  minute: 'YYYY-MM-DD HH:mm',
  hour: 'YYYY-MM-DD HH:00',
  day: 'YYYY-MM-DD',
};

/**
 * `style_dailynote(groupby)`: a daily note's highlights under a `### <time>` heading per
 * minute (the default), `hour` or `day` of their creation in the user's time zone; each
 * highlight a paragraph (an image as `![](url)`), its annotation quoted below it.
 */
function styleDailyNote(this: FilterThis, highlights: unknown, ...args: unknown[]): string {
  const { groupby } = filterOptions(args, ['groupby'] as const);
  const format = GROUP_FORMATS[text(groupby)] ?? GROUP_FORMATS.minute!;
  const groups = new Map<string, string[]>();
  for (const item of Array.isArray(highlights) ? highlights : []) {
    const h = (item ?? {}) as Record<string, unknown>;
    const key = formatDate(h.createat_ts, format, timeZoneOf(this));
    const imageUrl = text(h.imageurl ?? h.imageUrl);
    const parts = [imageUrl ? `![](${imageUrl})` : text(h.note).trim()];
    const annotation = textLines(h.annonation ?? h.annotation);
    if (annotation.length > 0) parts.push(annotation.map((line) => `> ${line}`).join('\n'));
    groups.set(key, [...(groups.get(key) ?? []), parts.filter(Boolean).join('\n\n')]);
  }
  return [...groups]
    .map(([key, items]) => `${key ? `### ${key}\n\n` : ''}${items.join('\n\n')}\n`)
    .join('\n');
}

/** `yaml_field(name)`: a `name: value` front-matter line, or nothing when the value is empty. */
function yamlFieldFilter(value: unknown, name: unknown): string {
  return isBlank(value) ? '' : yamlField(text(name), value);
}

/** `yaml_list(sep)`: a list (or a string split at `sep`, default `,`) as a YAML flow sequence. */
function yamlListFilter(value: unknown, separator?: unknown): string {
  const items = Array.isArray(value)
    ? value
    : text(value)
        .split(isBlank(separator) ? ',' : text(separator))
        .map((item) => item.trim())
        .filter(Boolean);
  return yamlList(items);
}

export function registerSyncFilters(engine: Liquid): void {
  engine.registerFilter('date', date);
  engine.registerFilter('pretty', pretty);
  engine.registerFilter('style1', style1);
  engine.registerFilter('style_dailynote', styleDailyNote);
  engine.registerFilter('yaml_text', yamlText);
  engine.registerFilter('yaml_field', yamlFieldFilter);
  engine.registerFilter('yaml_list', yamlListFilter);
}
