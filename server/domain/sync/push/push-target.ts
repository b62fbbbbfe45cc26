import type { z } from 'zod';
import type { ExportRecord, Templates } from '../../../../src/schemas/sync.ts';
import type { ComputeBudget } from '../../compute/compute-pool.ts';
import type { RenderContext } from '../templates/render.ts';
import type { PushEnv } from './push-http.ts';
import type { PushRecords } from './push-records.ts';

/** What one run of a push works with. */
export interface PushScope {
  records: PushRecords;
  templates: Templates;
  render: RenderContext;
  /** What the run's template rendering spends. */
  budget: ComputeBudget;
  /** The integration's folder setting (SiYuan: the document path under the notebook). */
  folder: string;
  env: PushEnv;
}

/** One connected tool, opened with its saved credentials for one run. */
export interface PushTarget {
  /** Sends what changed in one note (what is recorded as sent with the same content is skipped); answers how many items were sent. */
  pushNote(record: ExportRecord): Promise<number>;
  /** The note is gone (deleted, trashed, or no longer matching the filter). */
  removeNote(noteId: string): Promise<number>;
}

/** How Margin connects to, and pushes into, one tool. */
export interface PushConnector<C> {
  /** The credentials as saved on the integration (what connecting answered). */
  saved: z.ZodType<C>;
  /** Checks what the user entered against the tool (an AppError with a message key when it fails); answers what to save. */
  connect(input: unknown, env: PushEnv): Promise<C>;
  /** Where the pushes go: pushes recorded for another destination are not pushes here. */
  destination(credentials: C): string;
  open(credentials: C, scope: PushScope): PushTarget;
}
