import type {
  ExportHighlight,
  ExportRecord,
  IntegrationApp,
  Templates,
} from '../../../../src/schemas/sync.ts';
import type { ComputeBudget } from '../../compute/compute-pool.ts';
import type { RenderedNote } from '../../compute/compute-tasks.ts';
import type { UnknownVariables } from './render-engine.ts';
import type { RenderContext } from './variables.ts';

// What the server calls to render templates: each call is a task of the compute pool, charged to
// the request's budget (./render-engine.ts is the engine the pool's threads run).

export { DEFAULT_TEMPLATES, SAMPLE_RECORDS, workflowyNode } from './render-engine.ts';
export type { RenderContext };

/** Title, Markdown and file name of each record, in order, with the app's note templates. */
export function renderNotes(
  budget: ComputeBudget,
  app: IntegrationApp,
  templates: Templates,
  records: ExportRecord[],
  ctx: RenderContext,
): Promise<RenderedNote[]> {
  if (!records.length) return Promise.resolve([]);
  return budget.run({ name: 'renderNotes', app, templates, records, ctx: plainContext(ctx) });
}

export async function renderNote(
  budget: ComputeBudget,
  app: IntegrationApp,
  templates: Templates,
  record: ExportRecord,
  ctx: RenderContext,
): Promise<RenderedNote> {
  const [note] = await renderNotes(budget, app, templates, [record], ctx);
  return note!;
}

/** flomo / WorkFlowy: the highlight template's text of each of the record's highlights (or of `only`). */
export function renderHighlights(
  budget: ComputeBudget,
  app: IntegrationApp,
  templates: Templates,
  record: ExportRecord,
  ctx: RenderContext,
  only?: ExportHighlight,
): Promise<string[]> {
  return budget.run({
    name: 'renderHighlights',
    app,
    templates,
    record,
    highlightIds: only && [only.id],
    ctx: plainContext(ctx),
  });
}

export async function renderHighlight(
  budget: ComputeBudget,
  app: IntegrationApp,
  templates: Templates,
  record: ExportRecord,
  highlight: ExportHighlight,
  ctx: RenderContext,
): Promise<string> {
  const [text] = await renderHighlights(budget, app, templates, record, ctx, highlight);
  return text ?? '';
}

/**
 * Trial-renders every template the app uses against the samples; throws the first failure
 * (errors.templateInvalid), else answers the variables they use that no render gives.
 */
export function checkTemplates(
  budget: ComputeBudget,
  app: IntegrationApp,
  templates: Templates,
): Promise<UnknownVariables[]> {
  return budget.run({ name: 'checkTemplates', app, templates });
}

function plainContext({ timeZone, tagStyle }: RenderContext): Omit<RenderContext, 'deadline'> {
  return { timeZone, tagStyle };
}
