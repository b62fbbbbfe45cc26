import type { CSSProperties } from 'react';
import { CARD_GRID } from '../../../src/constants.ts';
import { ViewStyle } from '../../../src/enums.ts';

/** Fixed row pitch per view style (item height plus the gap below it), so rows can be windowed. */
export const ROW_PITCH: Readonly<Record<ViewStyle, number>> = {
  [ViewStyle.article]: 144,
  [ViewStyle.card]: 308 + CARD_GRID.gap,
  [ViewStyle.list]: 48,
};
const ROW_GAP: Readonly<Record<ViewStyle, number>> = {
  [ViewStyle.article]: 8,
  [ViewStyle.card]: CARD_GRID.gap,
  [ViewStyle.list]: 0,
};

/** Columns of the card grid: as many 320 px columns (gap 8) as fit, at least one. */
export function columnsFor(view: ViewStyle, width: number): number {
  if (view !== ViewStyle.card) return 1;
  return Math.max(1, Math.floor((width + CARD_GRID.gap) / (CARD_GRID.width + CARD_GRID.gap)));
}

/** Where item `index` sits: its grid row and, for cards, its column. */
export function itemStyle(view: ViewStyle, index: number, columns: number): CSSProperties {
  const row = Math.floor(index / columns);
  const column = index % columns;
  const gap = CARD_GRID.gap;
  return {
    insetBlockStart: row * ROW_PITCH[view],
    blockSize: ROW_PITCH[view] - ROW_GAP[view],
    ...(columns > 1 && {
      inlineSize: `calc((100% - ${(columns - 1) * gap}px) / ${columns})`,
      insetInlineStart: `calc(${column} * ((100% - ${(columns - 1) * gap}px) / ${columns} + ${gap}px))`,
    }),
  };
}
