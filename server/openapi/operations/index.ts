import type { Operation } from '../operation.ts';
import { dailyOperations } from './daily.ts';
import { extensionOperations } from './extension.ts';
import { highlightOperations } from './highlights.ts';
import { libraryOperations } from './library.ts';
import { noteOperations } from './notes.ts';

/** Every Open API operation, in the document's order. */
export const OPERATIONS: readonly Operation[] = [
  ...noteOperations,
  ...highlightOperations,
  ...libraryOperations,
  ...dailyOperations,
  ...extensionOperations,
];
