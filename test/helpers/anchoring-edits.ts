// Edit-kind harness for re-anchoring: random pages (Latin, CJK, mixed), a random highlight on
// each, one typical edit of a given kind, and where the highlighted text really is afterwards.
// The highlight is carried through the edit between two private-use markers, so the truth is
// read off the edited page rather than guessed. Used by the anchoring edit test and its bench.
import { readFileSync } from 'node:fs';
import {
  type AnchorResult,
  anchor,
  describeRange,
  type HighlightSelectors,
} from '../../src/anchoring/index.ts';

export const EDIT_KINDS = [
  'paragraph-inserted',
  'paragraph-deleted',
  'typo-fixed',
  'word-changed',
  'reflowed',
  'paragraphs-reordered',
  'quote-deleted',
  'quote-duplicated',
  'header-prepended',
] as const;
export type EditKind = (typeof EDIT_KINDS)[number];

const START = '\uE000';
const END = '\uE001';
const PARAGRAPH_BREAK = '\n\n';

export type Random = () => number;

export const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
export const between = (random: Random, low: number, high: number): number =>
  low + Math.floor(random() * (high - low + 1));

const LATIN_WORDS = `the of and a to in is it that was for on with as his they be at one have this from
by or had not but what some we can out other were all there when up use your how said an each she which
do their time if will way about many then them write would like so these her long make thing see him two
has look more day could go come did number sound no most people my over know water than call first who
may down side been now find reader margin highlight quote page text moves daily folder clip archive
search title author link quiet river mountain evening library window question answer story garden city
history science memory attention habit writing research evidence method system design pattern language
culture economy market policy health sleep learning teacher student morning journey letter friend family
novel poem simple careful patient curious honest bright slow deep clear strong gentle modern ancient`.split(
  /\s+/,
);
const CJK_WORDS =
  `用户 体验 阅读 笔记 默认 设置 时间 问题 方法 学习 工作 生活 世界 知识 思考 写作 历史 科学 记忆
注意 习惯 研究 证据 系统 设计 模式 语言 文化 经济 市场 政策 健康 睡眠 老师 学生 图书馆 城市 河流 花园 早晨
晚上 旅行 朋友 家庭 故事 小说 诗歌 安静 耐心 好奇 诚实 明亮 深刻 清楚 现代 古代 的 了 是 在 我们 他们 这个
读書 記事 勉強 日本語 文章 考え 質問 答え 理論 実践 庭 川 町 言葉 先生 友達 物語 は が を に の と で です`.split(
    /\s+/,
  );
const HEADER_LINES = [
  'Home',
  'News',
  'Subscribe',
  'Sign in',
  'Menu',
  'Share this article',
  'Advertisement',
  'Related stories',
  '首页',
  '登录',
  '订阅',
  'ホーム',
];

export type Script = 'latin' | 'cjk';

/** The article bodies (1,000 code units or more) of the extraction corpus beside the checkout. */
export function articleTexts(): string[] {
  const file = new URL('../corpus/extraction-dev/ground-truth.json', import.meta.url);
  const articles = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { articleBody?: string }>;
  return Object.values(articles)
    .map((article) => article.articleBody ?? '')
    .filter((body) => body.length >= 1_000);
}

function latinSentence(random: Random): string {
  const words = Array.from({ length: between(random, 5, 18) }, () => pick(random, LATIN_WORDS));
  const text = words.join(' ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}${pick(random, ['.', '.', '.', '?', '!'])}`;
}

function cjkSentence(random: Random): string {
  const words = Array.from({ length: between(random, 4, 14) }, () => pick(random, CJK_WORDS));
  return `${words.join('')}${pick(random, ['。', '。', '，', '！'])}`;
}

const sentenceIn = (random: Random, script: Script): string =>
  script === 'latin' ? latinSentence(random) : cjkSentence(random);

function paragraph(random: Random, script: Script): string {
  const sentences = Array.from({ length: between(random, 1, 6) }, () => sentenceIn(random, script));
  return sentences.join(script === 'latin' ? ' ' : '');
}

/**
 * A page of 3,000–20,000 code units (or about `length`). One in five repeats a paragraph
 * elsewhere, as pages with boilerplate and pull quotes do.
 */
export function randomPage(random: Random, script: Script | 'mixed', length?: number): string {
  const target = length ?? between(random, 3_000, 20_000);
  const paragraphs: string[] = [];
  let written = 0;
  while (written < target) {
    const next = paragraph(random, script === 'mixed' ? pick(random, ['latin', 'cjk'] as const) : script);
    paragraphs.push(next);
    written += next.length + PARAGRAPH_BREAK.length;
  }
  if (paragraphs.length > 2 && random() < 0.2) {
    const copy = pick(random, paragraphs);
    paragraphs.splice(between(random, 0, paragraphs.length), 0, copy);
  }
  return paragraphs.join(PARAGRAPH_BREAK);
}

/** Offsets where a user's selection would start or end: word edges for Latin, any CJK character. */
export function selectionEdges(text: string): number[] {
  const edges = new Set<number>([0, text.length]);
  for (const match of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    if (/^[\p{Script=Latin}\p{N}]+$/u.test(match[0])) {
      edges.add(match.index);
      edges.add(match.index + match[0].length);
    } else {
      for (let i = 0; i <= match[0].length; i++) edges.add(match.index + i);
    }
  }
  return [...edges].sort((a, b) => a - b);
}

/** A highlight like a reader makes: a word or a few characters, a phrase, or a passage. */
export function randomHighlight(random: Random, text: string): [number, number] {
  const edges = selectionEdges(text);
  const roll = random();
  const [low, high] = roll < 0.3 ? [1, 8] : roll < 0.8 ? [10, 80] : [100, 400];
  const wanted = between(random, low, high);
  for (let attempt = 0; attempt < 50; attempt++) {
    const from = between(random, 0, edges.length - 2);
    const start = edges[from]!;
    let to = from + 1;
    while (to < edges.length - 1 && edges[to]! - start < wanted) to++;
    const end = edges[to]!;
    const quote = text.slice(start, end);
    if (end > start && quote.trim().length > 0 && end - start <= wanted + 20) {
      return [
        start + (quote.length - quote.trimStart().length),
        end - (quote.length - quote.trimEnd().length),
      ];
    }
  }
  const start = between(random, 0, text.length - 2);
  return [start, start + 1];
}

// --- Edits on the marked page (START and END around the highlighted text) -----------------

type MarkedEdit = (marked: string, random: Random) => string;

const quoteSpan = (marked: string): [number, number] => [marked.indexOf(START), marked.indexOf(END)];

/** Offsets of paragraph breaks that lie outside the highlight. */
function breaksOutside(marked: string): number[] {
  const [start, end] = quoteSpan(marked);
  const found: number[] = [];
  for (let at = marked.indexOf(PARAGRAPH_BREAK); at !== -1; at = marked.indexOf(PARAGRAPH_BREAK, at + 1)) {
    if (at < start || at > end) found.push(at);
  }
  return found;
}

function scriptAround(marked: string): Script {
  return /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(marked.slice(0, 2_000)) &&
    !/[a-z]{3}/.test(marked.slice(0, 200))
    ? 'cjk'
    : 'latin';
}

function replaceInsideQuote(marked: string, change: (quote: string) => string): string {
  const [start, end] = quoteSpan(marked);
  return marked.slice(0, start + 1) + change(marked.slice(start + 1, end)) + marked.slice(end);
}

const insertParagraph: MarkedEdit = (marked, random) => {
  const breaks = [0, ...breaksOutside(marked), marked.length];
  const at = pick(random, breaks);
  const added = paragraph(random, scriptAround(marked));
  if (at === 0) return added + PARAGRAPH_BREAK + marked;
  if (at === marked.length) return marked + PARAGRAPH_BREAK + added;
  return marked.slice(0, at) + PARAGRAPH_BREAK + added + marked.slice(at);
};

const deleteParagraph: MarkedEdit = (marked, random) => {
  const paragraphs = marked.split(PARAGRAPH_BREAK);
  const free = paragraphs.map((_, i) => i).filter((i) => !/[\uE000\uE001]/.test(paragraphs[i]!));
  if (free.length === 0) return marked;
  paragraphs.splice(pick(random, free), 1);
  return paragraphs.join(PARAGRAPH_BREAK);
};

const LETTERS = [...'abcdefghijklmnopqrstuvwxyz'];
const CJK_TYPOS = ['的', '地', '得', '在', '再', '做', '作'];

/** A character a typo puts in place of or beside `near`: a CJK one in CJK text, else a letter. */
export const typoCharacter = (random: Random, near: string): string =>
  pick(random, /[\u3040-\u9fff]/.test(near) ? CJK_TYPOS : LETTERS);

/** One character substituted, inserted or deleted inside the quote (never emptying it). */
const fixTypo: MarkedEdit = (marked, random) =>
  replaceInsideQuote(marked, (quote) => {
    const at = between(random, 0, quote.length - 1);
    const other = typoCharacter(random, quote[at]!);
    const roll = quote.length > 1 ? random() : 0;
    if (roll < 0.5)
      return quote.slice(0, at) + (other === quote[at] ? other.toUpperCase() : other) + quote.slice(at + 1);
    if (roll < 0.75) return quote.slice(0, at) + other + quote.slice(at);
    return quote.slice(0, at) + quote.slice(at + 1);
  });

/** One word of the quote (a CJK word: one or two characters) replaced by another word. */
const changeWord: MarkedEdit = (marked, random) =>
  replaceInsideQuote(marked, (quote) => {
    const words = [
      ...quote.matchAll(/[\p{Script=Latin}]+|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]{1,2}/gu),
    ];
    if (words.length === 0) return quote;
    const word = pick(random, words);
    const cjk = !/\p{Script=Latin}/u.test(word[0]);
    let replacement = word[0];
    while (replacement === word[0]) replacement = pick(random, cjk ? CJK_WORDS : LATIN_WORDS);
    return quote.slice(0, word.index) + replacement + quote.slice(word.index + word[0].length);
  });

/** Whitespace as a re-parse changes it: wrapped lines, doubled spaces, NBSP, joined paragraphs. */
const reflow: MarkedEdit = (marked, random) => {
  let column = 0;
  let out = '';
  for (const char of marked) {
    if (char === '\n' && marked.length > 0 && random() < 0.1) {
      out += ' ';
      continue;
    }
    if (char === ' ') {
      const roll = random();
      if (column > 60 && roll < 0.5) {
        out += '\n';
        column = 0;
        continue;
      }
      out += roll < 0.1 ? '  ' : roll < 0.15 ? '\u00a0' : ' ';
    } else out += char;
    column = char === '\n' ? 0 : column + 1;
  }
  return out;
};

const reorderParagraphs: MarkedEdit = (marked, random) => {
  const paragraphs = marked.split(PARAGRAPH_BREAK);
  if (random() < 0.5) {
    for (let i = paragraphs.length - 1; i > 0; i--) {
      const j = between(random, 0, i);
      [paragraphs[i], paragraphs[j]] = [paragraphs[j]!, paragraphs[i]!];
    }
  } else {
    for (let moves = between(random, 1, 3); moves > 0; moves--) {
      const [moved] = paragraphs.splice(between(random, 0, paragraphs.length - 1), 1);
      paragraphs.splice(between(random, 0, paragraphs.length), 0, moved!);
    }
  }
  return paragraphs.join(PARAGRAPH_BREAK);
};

const deleteQuote: MarkedEdit = (marked) => {
  const [start, end] = quoteSpan(marked);
  return marked.slice(0, start) + marked.slice(end + 1);
};

/** The quote, alone or with some of the words around it, copied into another paragraph. */
const duplicateQuote: MarkedEdit = (marked, random) => {
  const [start, end] = quoteSpan(marked);
  const plain = (from: number, to: number) => marked.slice(from, to).replace(/[\uE000\uE001]/g, '');
  const widen = random() < 0.4 ? between(random, 1, 24) : 0;
  const copy = plain(Math.max(0, start - widen), Math.min(marked.length, end + 1 + widen));
  const breaks = [0, ...breaksOutside(marked)];
  const at = pick(random, breaks);
  const separator = random() < 0.5 ? PARAGRAPH_BREAK : ' ';
  return (
    marked.slice(0, at) + (at === 0 ? '' : separator) + copy + (at === 0 ? separator : '') + marked.slice(at)
  );
};

const prependHeader: MarkedEdit = (marked, random) => {
  const lines: string[] = [];
  const target = between(random, 300, 3_000);
  let length = 0;
  while (length < target) {
    const line = random() < 0.5 ? pick(random, HEADER_LINES) : sentenceIn(random, scriptAround(marked));
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n') + PARAGRAPH_BREAK + marked;
};

const EDITS: Record<EditKind, MarkedEdit> = {
  'paragraph-inserted': insertParagraph,
  'paragraph-deleted': deleteParagraph,
  'typo-fixed': fixTypo,
  'word-changed': changeWord,
  reflowed: reflow,
  'paragraphs-reordered': reorderParagraphs,
  'quote-deleted': deleteQuote,
  'quote-duplicated': duplicateQuote,
  'header-prepended': prependHeader,
};

// --- Cases and their verdicts -----------------------------------------------------------------

export interface Range {
  start: number;
  end: number;
}

/** The rule for a placement: it and the true range overlap by at least 90 % of each. */
export function coversTruth(truth: Range, placed: Range): boolean {
  const overlap = Math.min(truth.end, placed.end) - Math.max(truth.start, placed.start);
  return (
    overlap > 0 && overlap >= 0.9 * (truth.end - truth.start) && overlap >= 0.9 * (placed.end - placed.start)
  );
}

export interface EditCase {
  kind: EditKind;
  selectors: HighlightSelectors;
  edited: string;
  /** Where the highlighted text is now, or undefined when the edit took it away. */
  truth: Range | undefined;
  /**
   * The parts of a highlight over a paragraph break that reordering tore apart: placing it on
   * text that is mostly these parts is as right as reporting it lost.
   */
  pieces: Range[];
  /**
   * The quote is still there with at most one character changed (whitespace aside); a
   * one-character quote whose character changed is not.
   */
  quoteSurvives: boolean;
}

/** The page without markers, and the ranges each START–END pair enclosed. */
function unmark(marked: string): { edited: string; marks: Range[] } {
  const marks: Range[] = [];
  let edited = '';
  let open = -1;
  for (const char of marked) {
    if (char === START) open = edited.length;
    else if (char === END) {
      if (open !== -1) marks.push({ start: open, end: edited.length });
      open = -1;
    } else edited += char;
  }
  return { edited, marks };
}

const squeeze = (text: string): string => text.replace(/\s+/gu, ' ');

function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const tail = (x: string, y: string) =>
    x.slice(i + 1) === y.slice(i + 1) || x.slice(i + 1) === y.slice(i) || x.slice(i) === y.slice(i + 1);
  return tail(a, b);
}

/** Builds one case: `page` edited by `kind` around a highlight on [start, end). */
export function editCase(
  kind: EditKind,
  page: string,
  [start, end]: [number, number],
  random: Random,
): EditCase {
  const selectors = describeRange(page, start, end);
  const quote = page.slice(start, end);
  // Reordering moves paragraphs whole, so each paragraph's part of the quote is marked on its own.
  const markedQuote =
    kind === 'paragraphs-reordered'
      ? quote.split(PARAGRAPH_BREAK).join(END + PARAGRAPH_BREAK + START)
      : quote;
  const editedMarked = EDITS[kind](
    page.slice(0, start) + START + markedQuote + END + page.slice(end),
    random,
  );
  const { edited, marks } = unmark(editedMarked);
  let truth: EditCase['truth'];
  const pieces: Range[] = [];
  if (marks.length > 0) {
    const whole = { start: marks[0]!.start, end: marks[marks.length - 1]!.end };
    const intact = kind !== 'paragraphs-reordered' || edited.slice(whole.start, whole.end) === quote;
    if (!intact) pieces.push(...marks);
    else if (edited.slice(whole.start, whole.end).trim().length > 0) truth = whole;
  }
  const quoteSurvives =
    truth !== undefined &&
    (edited.slice(truth.start, truth.end) === selectors.quote.exact || selectors.quote.exact.length > 1) &&
    withinOneEdit(squeeze(edited.slice(truth.start, truth.end)), squeeze(selectors.quote.exact));
  return { kind, selectors, edited, truth, pieces, quoteSurvives };
}

export type Verdict = 'correct' | 'wrong' | 'orphaned';

function coincide(a: Range, b: Range): boolean {
  const overlap = Math.min(a.end, b.end) - Math.max(a.start, b.start);
  const union = Math.max(a.end, b.end) - Math.min(a.start, b.start);
  return overlap > 0 && overlap / union >= 0.5;
}

/**
 * Correct: placed on the text where the highlight now is (overlapping at least half of the two
 * ranges' union), or reported lost when that text is gone. Wrong: placed anywhere else.
 */
export function verdict(testCase: EditCase, result: AnchorResult): Verdict {
  const { truth, pieces } = testCase;
  if (result.status === 'detached') return truth ? 'orphaned' : 'correct';
  if (truth) return coincide(truth, result) ? 'correct' : 'wrong';
  const onPieces = pieces.reduce(
    (sum, piece) => sum + Math.max(0, Math.min(piece.end, result.end) - Math.max(piece.start, result.start)),
    0,
  );
  return onPieces >= (result.end - result.start) / 2 ? 'correct' : 'wrong';
}

export interface KindTally {
  kind: EditKind;
  cases: number;
  correct: number;
  wrong: number;
  orphaned: number;
  surviving: number;
  survivingCorrect: number;
  /** Counted correct, but placed and true range do not overlap by 90 % of each (issue 35's rule). */
  partial: number;
  /** Milliseconds per anchor call, sorted. */
  times: number[];
}

function tallyFor(kind: EditKind): KindTally {
  return {
    kind,
    cases: 0,
    correct: 0,
    wrong: 0,
    orphaned: 0,
    surviving: 0,
    survivingCorrect: 0,
    partial: 0,
    times: [],
  };
}

function record(tally: KindTally, testCase: EditCase, result: AnchorResult, milliseconds: number): Verdict {
  const outcome = verdict(testCase, result);
  tally.cases++;
  tally[outcome]++;
  const { truth } = testCase;
  if (outcome === 'correct' && truth && result.status !== 'detached' && !coversTruth(truth, result)) {
    tally.partial++;
  }
  if (testCase.quoteSurvives) {
    tally.surviving++;
    if (outcome === 'correct') tally.survivingCorrect++;
  }
  tally.times.push(milliseconds);
  return outcome;
}

/**
 * Anchors `count` highlights on pages from `pageAt`, each page edited by `kind`, timing each
 * `anchor` call; `onCase` sees every case with its outcome.
 */
export function tallyEditKind(
  kind: EditKind,
  count: number,
  random: Random,
  pageAt: (index: number) => string,
  onCase?: (testCase: EditCase, result: AnchorResult, outcome: Verdict) => void,
): KindTally {
  const tally = tallyFor(kind);
  for (let i = 0; i < count; i++) {
    const page = pageAt(i);
    const testCase = editCase(kind, page, randomHighlight(random, page), random);
    const started = performance.now();
    const result = anchor(testCase.edited, testCase.selectors);
    const outcome = record(tally, testCase, result, performance.now() - started);
    onCase?.(testCase, result, outcome);
  }
  return tally;
}

const percent = (part: number, whole: number): string =>
  whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)}%`;
const quantile = (sorted: number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** A Markdown table: one row per edit kind. */
export function formatTallies(tallies: KindTally[]): string {
  const rows = tallies.map((t) => {
    const times = [...t.times].sort((a, b) => a - b);
    return `| ${t.kind} | ${t.cases} | ${percent(t.correct, t.cases)} | ${percent(t.wrong, t.cases)} | ${percent(t.orphaned, t.cases)} | ${percent(t.partial, t.cases)} | ${percent(t.survivingCorrect, t.surviving)} of ${t.surviving} | ${quantile(times, 0.5).toFixed(2)} | ${quantile(times, 0.95).toFixed(2)} |`;
  });
  return [
    '| edit | cases | correct | wrong | orphaned | correct, < 90 % overlap | correct where the quote survives | p50 ms | p95 ms |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
