import TurndownService from 'turndown';
import { AppError, type AppErrorCode, type AppErrorReason, type ErrorParams } from '../../../src/errors.ts';
import type { ExportRecord, IntegrationApp, Templates } from '../../../src/schemas/sync.ts';
import * as engine from '../sync/templates/render-engine.ts';
import { threadCpuMs } from './thread-cpu.ts';

// The compute pool's worker entry: CPU-heavy work whose cost the user's input controls (their
// templates, a clipped page's HTML), run in a worker thread so the event loop that serves
// requests never waits on it. Each task gets what is left of its request's budget and stops
// with `budget` once it is spent (this thread's CPU time, see ./thread-cpu.ts); the pool
// terminates a thread that overruns even that.

type Context = Omit<engine.RenderContext, 'deadline'>;

export type ComputeTask =
  /** Title, Markdown and file name of each record, with the app's note templates. */
  | { name: 'renderNotes'; app: IntegrationApp; templates: Templates; records: ExportRecord[]; ctx: Context }
  /** The highlight template's text for each of `highlightIds` (all of the record's when omitted). */
  | {
      name: 'renderHighlights';
      app: IntegrationApp;
      templates: Templates;
      record: ExportRecord;
      highlightIds?: string[];
      ctx: Context;
    }
  /** Trial-renders the templates against the samples (the first failure names its template). */
  | { name: 'checkTemplates'; app: IntegrationApp; templates: Templates }
  /** A note's article HTML as Markdown. */
  | { name: 'htmlToMarkdown'; html: string };

export interface RenderedNote {
  title: string;
  markdown: string;
  fileName: string;
}

export interface ComputeValues {
  renderNotes: RenderedNote[];
  renderHighlights: string[];
  checkTemplates: engine.UnknownVariables[];
  htmlToMarkdown: string;
}

export type ComputeOutcome =
  | { ok: true; value: unknown; elapsedMs: number }
  | {
      ok: false;
      error: { code: AppErrorCode; messageKey: string; params?: ErrorParams; reason?: AppErrorReason };
      elapsedMs: number;
    }
  | { ok: false; error: 'budget'; elapsedMs: number };

let turndown: TurndownService | undefined;

function articleMarkdown(html: string): string {
  turndown ??= new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  return turndown.turndown(html);
}

async function perform(task: ComputeTask, deadline: number): Promise<unknown> {
  switch (task.name) {
    case 'renderNotes': {
      const ctx = { ...task.ctx, deadline };
      const notes: RenderedNote[] = [];
      for (const record of task.records)
        notes.push(await engine.renderNote(task.app, task.templates, record, ctx));
      return notes;
    }
    case 'renderHighlights': {
      const ctx = { ...task.ctx, deadline };
      const wanted = task.highlightIds && new Set(task.highlightIds);
      const texts: string[] = [];
      for (const highlight of task.record.highlights) {
        if (wanted && !wanted.has(highlight.id)) continue;
        texts.push(await engine.renderHighlight(task.app, task.templates, task.record, highlight, ctx));
      }
      return texts;
    }
    case 'checkTemplates':
      return engine.checkTemplates(task.app, task.templates, deadline);
    case 'htmlToMarkdown':
      return articleMarkdown(task.html);
  }
}

/** Runs one task within `budgetMs` of this thread's CPU time; answers the CPU time it took. */
export default async function runTask({
  task,
  budgetMs,
}: {
  task: ComputeTask;
  budgetMs: number;
}): Promise<ComputeOutcome> {
  const started = threadCpuMs();
  const elapsed = () => threadCpuMs() - started;
  try {
    const value = await perform(task, started + budgetMs);
    return { ok: true, value, elapsedMs: elapsed() };
  } catch (error) {
    if (error instanceof engine.RenderBudgetExceeded)
      return { ok: false, error: 'budget', elapsedMs: elapsed() };
    if (error instanceof AppError) {
      const { code, messageKey, params, reason } = error;
      return { ok: false, error: { code, messageKey, params, reason }, elapsedMs: elapsed() };
    }
    throw error;
  }
}
