import { BlockTag, type Context, type Emitter, Liquid, LiquidError, type Template } from 'liquidjs';
import { AppError } from '../../../../src/errors.ts';
import {
  APP_TEMPLATES,
  type ExportHighlight,
  type ExportRecord,
  type IntegrationApp,
  TagStyle,
  TEMPLATE_MAX,
  type TemplateName,
  type Templates,
} from '../../../../src/schemas/sync.ts';
import { threadCpuMs } from '../../compute/thread-cpu.ts';
import { validTimeZone } from './dates.ts';
import { DEFAULT_TEMPLATES } from './defaults.ts';
import { fileNameFor } from './file-name.ts';
import { FILTER_TIME_ZONE, registerSyncFilters } from './filters.ts';
import { fromNunjucks } from './nunjucks.ts';
import { SAMPLE_RECORDS } from './samples.ts';
import { highlightVariables, pageVariables, type RenderContext, tagLine } from './variables.ts';

export type { RenderContext };
export { DEFAULT_TEMPLATES, fileNameFor, pageVariables, SAMPLE_RECORDS };

// The template engine itself. It runs only inside the compute pool's worker threads
// (server/domain/compute/), never on the event loop that serves requests: ./render.ts is what
// the rest of the server calls.

/** The most a rendered template may weigh (UTF-8 bytes). */
export const TEMPLATE_OUTPUT_MAX_BYTES = 1024 * 1024;
/**
 * Per render: wall time (ms) and LiquidJS's allocation units. The request's budget, in CPU time,
 * is the real bound; this one only stops a single render that runs away.
 */
const RENDER_LIMIT_MS = 5000;
const MEMORY_LIMIT = 50_000_000;

/** The request's render budget ran out (its deadline is `RenderContext.deadline`). */
export class RenderBudgetExceeded extends Error {}

/** The block names the seed's templates mark for partial write mode (`{% block highlights %}`). */
const MARKED_BLOCKS = new Set(['highlights', 'pagenote', 'mdcontent']);

/** Seed templates' `{% block highlights %}…{% endblock %}` renders inside `%%begin highlights%%` … `%%end highlights%%`, as the seed's plugin wrote it. */
class MarkedBlockTag extends BlockTag {
  override *render(ctx: Context, emitter: Emitter): Generator<unknown, void, unknown> {
    if (!MARKED_BLOCKS.has(this.block)) {
      yield* super.render(ctx, emitter);
      return;
    }
    const inner = String(yield this.liquid.renderer.renderTemplates(this.templates, ctx));
    emitter.write(`%%begin ${this.block}%%\n${inner.replace(/^\n+|\n+$/g, '')}\n%%end ${this.block}%%\n`);
  }
}

function createEngine(): Liquid {
  const engine = new Liquid({
    // An empty in-memory file system: no template reads a file (the tags doing so are removed below too).
    templates: {},
    relativeReference: false,
    strictFilters: true,
    ownPropertyOnly: true,
    // Nunjucks's rules, which the seed's templates were written for: '' and 0 are false, and a
    // line holding only a tag (trimBlocks + lstripBlocks) leaves no blank line.
    jsTruthy: true,
    trimTagLeft: true,
    trimTagRight: true,
    greedy: false,
    parseLimit: TEMPLATE_MAX * 4,
    renderLimit: RENDER_LIMIT_MS,
    memoryLimit: MEMORY_LIMIT,
  });
  for (const tag of ['include', 'render', 'layout']) delete engine.tags[tag];
  engine.registerTag('block', MarkedBlockTag);
  registerSyncFilters(engine);
  return engine;
}

const engine = createEngine();

/** Parsed templates by source; settings change rarely and one sync renders one template many times. */
const parsed = new Map<string, Template[]>();
const PARSED_MAX = 100;

function parse(source: string): Template[] {
  let templates = parsed.get(source);
  if (!templates) {
    templates = engine.parse(fromNunjucks(source));
    if (parsed.size >= PARSED_MAX) parsed.delete(parsed.keys().next().value!);
    parsed.set(source, templates);
  }
  return templates;
}

function templateError(name: TemplateName, error: unknown): AppError {
  if (!(error instanceof LiquidError)) throw error;
  const [line = 1] = error.token?.getPosition() ?? [];
  const detail = (error.originalError?.message ?? error.message).replace(/, line:\d+, col:\d+$/, '');
  return new AppError(
    'BAD_REQUEST',
    'errors.templateInvalid',
    { template: name, line, detail },
    { reason: 'templateFailed' },
  );
}

/** The user's template, else the app's default. */
function sourceOf(app: IntegrationApp, templates: Templates, name: TemplateName): string {
  const own = templates[name];
  return own?.trim() ? own : (DEFAULT_TEMPLATES[app][name] ?? '');
}

async function render(
  name: TemplateName,
  source: string,
  scope: Record<string, unknown>,
  ctx: RenderContext,
): Promise<string> {
  const spent = () => ctx.deadline !== undefined && threadCpuMs() >= ctx.deadline;
  if (spent()) throw new RenderBudgetExceeded();
  let output: string;
  try {
    output = String(
      await engine.render(parse(source), scope, {
        globals: { [FILTER_TIME_ZONE]: validTimeZone(ctx.timeZone) },
      }),
    );
  } catch (error) {
    if (spent()) throw new RenderBudgetExceeded();
    throw templateError(name, error);
  }
  if (Buffer.byteLength(output) > TEMPLATE_OUTPUT_MAX_BYTES) {
    throw new AppError(
      'BAD_REQUEST',
      'errors.templateOutputTooLarge',
      { template: name, limit: '1 MB' },
      { reason: 'templateFailed' },
    );
  }
  return output;
}

/** Renders the app's title and note templates (the user's, else the default). */
export async function renderNote(
  app: IntegrationApp,
  templates: Templates,
  record: ExportRecord,
  ctx: RenderContext,
): Promise<{ title: string; markdown: string; fileName: string }> {
  const scope = pageVariables(record, ctx);
  const rendered = await render('title', sourceOf(app, templates, 'title'), scope, ctx);
  const title = rendered.replace(/\s+/g, ' ').trim();
  const markdown = await render('note', sourceOf(app, templates, 'note'), scope, ctx);
  return { title, markdown, fileName: fileNameFor(title, record.id) };
}

/**
 * A record's page variables, made once per record and context: rendering each of a note's
 * highlights rebuilt them (with every highlight's) each time, quadratic in the note's highlights.
 */
const pageScopes = new WeakMap<ExportRecord, Map<string, Record<string, unknown>>>();

function pageScope(record: ExportRecord, ctx: RenderContext): Record<string, unknown> {
  let byContext = pageScopes.get(record);
  if (!byContext) {
    byContext = new Map();
    pageScopes.set(record, byContext);
  }
  const key = `${ctx.timeZone}|${ctx.tagStyle}`;
  let scope = byContext.get(key);
  if (!scope) {
    scope = pageVariables(record, ctx);
    byContext.set(key, scope);
  }
  return scope;
}

/**
 * flomo / WorkFlowy: one highlight's text (the user's highlight template, else the default).
 * The template sees the page's variables and the highlight as `highlight` (and `item`, the
 * seed's name); `mergedtags` is the page's tags and this highlight's. flomo only knows `#tag`.
 * For WorkFlowy the first line is the node's name and the rest its note (`workflowyNode`).
 */
export async function renderHighlight(
  app: IntegrationApp,
  templates: Templates,
  record: ExportRecord,
  highlight: ExportHighlight,
  ctx: RenderContext,
): Promise<string> {
  const ownCtx = app === 'flomo' ? { ...ctx, tagStyle: TagStyle.hash } : ctx;
  const item = highlightVariables(highlight, ownCtx);
  const scope = {
    ...pageScope(record, ownCtx),
    highlight: item,
    item,
    mergedtags: tagLine([...record.tags, ...highlight.tags], ownCtx.tagStyle),
  };
  const text = await render('highlight', sourceOf(app, templates, 'highlight'), scope, ctx);
  return text.trim();
}

/** A WorkFlowy node from a rendered highlight: the first line its name, the other lines its note. */
export function workflowyNode(text: string): { name: string; note: string } {
  const [name = '', ...note] = text.trim().split('\n');
  return { name: name.trim(), note: note.join('\n').trim() };
}

/** A template's variables that no render gives (`note.title` in a note template): each renders as nothing. */
export interface UnknownVariables {
  template: TemplateName;
  names: string[];
}

/** The variables each kind of template is given, read off a sample (the names do not depend on the note). */
function knownVariables() {
  const record = SAMPLE_RECORDS.find((r) => r.highlights.length)!;
  const ctx: RenderContext = { timeZone: 'UTC', tagStyle: TagStyle.hash };
  return {
    page: new Set(Object.keys(pageVariables(record, ctx))),
    highlight: new Set(Object.keys(highlightVariables(record.highlights[0]!, ctx))),
  };
}
let known: ReturnType<typeof knownVariables> | undefined;
/** What the highlight template calls the highlight (`item` is the seed's name). */
const HIGHLIGHT_NAMES = new Set(['highlight', 'item']);

/**
 * The variables the app's templates use that are not given to them (loop and assigned variables
 * are the template's own, not checked): a misspelt name renders nothing, silently.
 */
function unknownVariablesOf(app: IntegrationApp, templates: Templates): UnknownVariables[] {
  known ??= knownVariables();
  const found: UnknownVariables[] = [];
  for (const name of APP_TEMPLATES[app]) {
    const names = new Set<string>();
    for (const segments of engine.globalVariableSegmentsSync(parse(sourceOf(app, templates, name)))) {
      const [root, member] = segments.map(String);
      if (root === undefined) continue;
      const isHighlight = name === 'highlight' && HIGHLIGHT_NAMES.has(root);
      if (!isHighlight && !known.page.has(root)) names.add(root);
      else if (isHighlight && member !== undefined && !known.highlight.has(member))
        names.add(`${root}.${member}`);
    }
    if (names.size) found.push({ template: name, names: [...names] });
  }
  return found;
}

/**
 * Trial-renders every template the app uses against SAMPLE_RECORDS (a highlight template with
 * every highlight); throws the first failure, naming the template (errors.templateInvalid).
 * Answers the variables the templates use that are not known (a warning: they render as nothing).
 */
export async function checkTemplates(
  app: IntegrationApp,
  templates: Templates,
  deadline?: number,
): Promise<UnknownVariables[]> {
  const ctx: RenderContext = { timeZone: 'UTC', tagStyle: TagStyle.hash, deadline };
  const names = APP_TEMPLATES[app];
  for (const record of SAMPLE_RECORDS) {
    if (names.includes('note')) await renderNote(app, templates, record, ctx);
    if (names.includes('highlight')) {
      for (const h of record.highlights) await renderHighlight(app, templates, record, h, ctx);
    }
  }
  return unknownVariablesOf(app, templates);
}
