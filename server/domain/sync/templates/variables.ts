import { Flow } from '../../../../src/enums.ts';
import {
  type ExportHighlight,
  ExportHighlightType,
  type ExportRecord,
  TagStyle,
} from '../../../../src/schemas/sync.ts';
import { DEFAULT_DATE_FORMAT, formatDate, validTimeZone } from './dates.ts';
import { yamlList } from './yaml.ts';

export interface RenderContext {
  timeZone: string;
  tagStyle: TagStyle;
  /** The thread's CPU time (`threadCpuMs()`) past which rendering stops (the request's budget); none: no budget. */
  deadline?: number;
}

/** The seed protocol's names of the highlight types (its `item.type`). */
const TYPE_NAMES: Record<number, string> = {
  [ExportHighlightType.text]: 'highlight',
  [ExportHighlightType.image]: 'image',
  [ExportHighlightType.math]: 'math',
  [ExportHighlightType.textNote]: 'quote',
};

/** A tag as the user's note tool writes it: `#name` (spaces become `-`) or `[[name]]`. */
export function formatTag(name: string, style: TagStyle): string {
  const bare = bareTag(name);
  return style === TagStyle.wikilink ? `[[${bare}]]` : `#${bare.replace(/\s+/g, '-')}`;
}

function bareTag(name: string): string {
  return name
    .trim()
    .replace(/^#/, '')
    .replace(/^\[\[(.*)\]\]$/, '$1')
    .trim();
}

function uniqueTags(names: readonly string[]): string[] {
  return [...new Set(names.map(bareTag).filter(Boolean))];
}

/** Tags written for the note body, space-separated: `#a #b-c` or `[[a]] [[b c]]`. */
export function tagLine(names: readonly string[], style: TagStyle): string {
  return uniqueTags(names)
    .map((name) => formatTag(name, style))
    .join(' ');
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}

/** `a.b.example.com` → `example.com` (the seed's `domain2`: the last two labels). */
function lastTwoLabels(host: string): string {
  return host.split('.').slice(-2).join('.');
}

/** The day `a` and `b` fall on differ in the zone: the seed's `diffupdateat_ts` is then `b`, else 0. */
function updatedOnAnotherDay(createdAt: number, updatedAt: number, timeZone: string): number {
  const day = (ts: number) => formatDate(ts, 'YYYY-MM-DD', timeZone);
  return createdAt > 0 && updatedAt > 0 && day(createdAt) !== day(updatedAt) ? updatedAt : 0;
}

/**
 * One highlight's variables: the seed protocol's (`type refid refurl note imageurl annonation
 * tags color slotid createat_ts updateat_ts`), the seed's camelCase spellings (`imageUrl`,
 * `slotId`) and Margin's own names (`id text annotation link taglist typeid`).
 */
export function highlightVariables(highlight: ExportHighlight, ctx: RenderContext): Record<string, unknown> {
  const annotation = highlight.annotation ?? '';
  const imageUrl = highlight.imageUrl ?? '';
  return {
    type: TYPE_NAMES[highlight.type] ?? 'highlight',
    typeid: highlight.type,
    refid: highlight.id,
    id: highlight.id,
    refurl: highlight.link,
    link: highlight.link,
    note: highlight.text,
    text: highlight.text,
    imageurl: imageUrl,
    imageUrl,
    annonation: annotation,
    annotation,
    tags: tagLine(highlight.tags, ctx.tagStyle),
    taglist: uniqueTags(highlight.tags),
    color: highlight.color,
    slotid: highlight.slot,
    slotId: highlight.slot,
    createat: formatDate(highlight.createdAt, DEFAULT_DATE_FORMAT, validTimeZone(ctx.timeZone)),
    createat_ts: highlight.createdAt,
    updateat_ts: highlight.updatedAt,
  };
}

/**
 * The protocol's page variables (see docs/SEED-PROTOCOL.md and the seed's template
 * manual), and Margin-friendly aliases. Tags come three ways: `tags` (the note's) and
 * `mergedtags` (the note's and its highlights') written in the tag style for the note body,
 * `trimtags` a YAML list of the bare names for front matter, `taglist` the names as a list.
 */
export function pageVariables(record: ExportRecord, ctx: RenderContext): Record<string, unknown> {
  const timeZone = validTimeZone(ctx.timeZone);
  const highlights = record.highlights.map((h) => highlightVariables(h, ctx));
  const domain = hostOf(record.url);
  const isStar = record.flow === Flow.shortlist;
  const isDaily = record.kind === 'daily';
  const pageTags = uniqueTags(record.tags);
  const allTags = uniqueTags([...record.tags, ...record.highlights.flatMap((h) => h.tags)]);
  return {
    title: record.title,
    url: record.url,
    wucaiurl: record.readerUrl,
    readurl: record.readerUrl,
    readerurl: record.readerUrl,
    tags: tagLine(pageTags, ctx.tagStyle),
    trimtags: yamlList(pageTags.map((name) => formatTag(name, TagStyle.hash).slice(1))),
    mergedtags: tagLine(allTags, ctx.tagStyle),
    taglist: pageTags,
    pagenote: '',
    pagescore: isStar ? 1 : 0,
    isstar: isStar,
    isStar,
    ispagemirror: false,
    highlights,
    highlightcount: highlights.length,
    annotationcount: record.highlights.filter((h) => h.annotation).length,
    createat: formatDate(record.createdAt, DEFAULT_DATE_FORMAT, timeZone),
    createat_ts: record.createdAt,
    updateat: formatDate(record.updatedAt, DEFAULT_DATE_FORMAT, timeZone),
    updateat_ts: record.updatedAt,
    publishat_ts: record.publishedAt ?? 0,
    diffupdateat_ts: updatedOnAnotherDay(record.createdAt, record.updatedAt, timeZone),
    noteid: record.id,
    citekey: '',
    author: record.author ?? '',
    sitename: record.siteName ?? '',
    folder: record.folder ?? '',
    domain,
    domain2: lastTwoLabels(domain),
    mdcontent: record.content,
    notetype: isDaily ? 'dailynote' : 'page',
    isdailynote: isDaily,
  };
}
