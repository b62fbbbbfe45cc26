import { type RefObject, useCallback, useEffect, useState } from 'react';
import { offsetsFromRange, textIndex } from '../../../src/anchoring/dom.ts';
import { describeRange } from '../../../src/anchoring/index.ts';
import type { HighlightSelectors } from '../../../src/anchoring/types.ts';

/** A finished, non-empty text selection inside the article, described for a new highlight. */
export interface ArticleSelection {
  selectors: HighlightSelectors;
  /** The selection's box now (it moves with scrolling). */
  rect(): DOMRect;
}

const liveRange = (root: HTMLElement): Range | null => {
  const selection = document.getSelection();
  if (!selection || selection.isCollapsed || !selection.rangeCount) return null;
  const range = selection.getRangeAt(0);
  return root.contains(range.commonAncestorContainer) ? range : null;
};

function describe(root: HTMLElement): ArticleSelection | null {
  const range = liveRange(root);
  if (!range) return null;
  const index = textIndex(root);
  const offsets = offsetsFromRange(root, range, index);
  if (!offsets || offsets.end <= offsets.start) return null;
  const selectors = describeRange(index.text, offsets.start, offsets.end);
  if (!selectors.quote.exact.trim()) return null;
  const frozen = range.cloneRange();
  return {
    selectors,
    rect: () => {
      const rects = frozen.getClientRects();
      return rects[0] ? frozen.getBoundingClientRect() : new DOMRect();
    },
  };
}

/**
 * The user's selection in the article once they finish making it (pointer or keyboard up), cleared
 * as soon as the selection collapses or leaves the article. `onFinished` sees each new selection.
 */
export function useArticleSelection(
  root: RefObject<HTMLElement | null>,
  onFinished?: (selection: ArticleSelection) => void,
) {
  const [selection, setSelection] = useState<ArticleSelection | null>(null);
  useEffect(() => {
    let pointerDown = false;
    const finish = () => {
      const element = root.current;
      if (!element) return;
      const next = describe(element);
      setSelection(next);
      if (next) onFinished?.(next);
    };
    const onPointerDown = (event: PointerEvent) => {
      if ((event.target as Element | null)?.closest?.('[data-selection-tooltip]')) return;
      pointerDown = true;
    };
    const onPointerUp = () => {
      if (!pointerDown) return;
      pointerDown = false;
      // The selection settles after the pointer event (a click inside a selection collapses it).
      setTimeout(finish, 0);
    };
    const onKeyUp = (event: KeyboardEvent) => {
      if (event.shiftKey || event.key === 'Shift' || ((event.ctrlKey || event.metaKey) && event.key === 'a'))
        finish();
    };
    const onSelectionChange = () => {
      const element = root.current;
      if (!element || pointerDown) return;
      if (!liveRange(element)) setSelection(null);
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('pointerup', onPointerUp);
    document.addEventListener('keyup', onKeyUp);
    document.addEventListener('selectionchange', onSelectionChange);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('pointerup', onPointerUp);
      document.removeEventListener('keyup', onKeyUp);
      document.removeEventListener('selectionchange', onSelectionChange);
    };
  }, [root, onFinished]);
  const dismiss = useCallback(() => {
    document.getSelection()?.removeAllRanges();
    setSelection(null);
  }, []);
  return { selection, dismiss };
}
