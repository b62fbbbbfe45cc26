import type { IntegrationApp } from '../../../src/schemas/sync.ts';

/** The first letter of the tool on a tile of its colour (no brand artwork is shipped). */
const LETTER: Record<IntegrationApp, string> = {
  obsidian: 'O',
  logseq: 'L',
  siyuan: 'S',
  flomo: 'f',
  workflowy: 'W',
};

export function AppMark({ app }: { app: IntegrationApp }) {
  return (
    <span className={`app-mark app-mark-${app}`} aria-hidden="true">
      {LETTER[app]}
    </span>
  );
}
