import type { Flow } from '../../../src/enums.ts';
import type { NoteSummary } from '../../../src/schemas/notes.ts';

/** What a row can ask the list to do; the list owns selection, dialogs and mutations. */
export interface RowHandlers {
  open(noteId: string): void;
  /** A click on the row's checkbox (or a Shift+click anywhere): toggle, or select a range. */
  select(index: number, range: boolean): void;
  focus(index: number): void;
  flow(note: NoteSummary, flow: Flow): void;
  trash(note: NoteSummary): void;
  restore(note: NoteSummary): void;
  deleteForever(note: NoteSummary): void;
  editTags(note: NoteSummary): void;
  filterTag(tag: string): void;
  /** The ids a drag from this row carries: the selection when the row is in it. */
  dragIds(noteId: string): string[];
}
