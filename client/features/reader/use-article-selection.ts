import { type RefObject, useCallback, useEffect, useState } from 'react';
import { offsetsFromRange, rangeFromOffsets, textIndex } from '../../../src/anchoring/dom.ts';
import { describeRange, snapToWords } from '../../../src/anchoring/index.ts';
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

/**
 * The selection described for a highlight, snapped to whole words (src/anchoring/words.ts). A
 * selection made with the pointer is widened on screen to what will be kept; one made with the
 * keyboard is left as it is, so the next Shift+arrow goes on from where the user put it.
 */
function describe(root: HTMLElement, showSnapped: boolean): ArticleSelection | null {
  const range = liveRange(root);
  if (!range) return null;
  const index = textIndex(root);
  const offsets = offsetsFromRange(root, range, index);
  if (!offsets || offsets.end <= offsets.start) return null;
  const words = snapToWords(index.text, offsets.start, offsets.end);
  if (words.end <= words.start) return null;
  const selectors = describeRange(index.text, words.start, words.end);
  if (!selectors.quote.exact.trim()) return null;
  let frozen = range.cloneRange();
  const { start, end } = selectors.position;
  if (showSnapped && (start !== offsets.start || end !== offsets.end)) {
    const snapped = rangeFromOffsets(root, start, end, index);
    if (snapped) {
      document
        .getSelection()
        ?.setBaseAndExtent(
          snapped.startContainer,
          snapped.startOffset,
          snapped.endContainer,
          snapped.endOffset,
        );
      frozen = snapped;
    }
  }
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
    const finish = (byPointer: boolean) => {
      const element = root.current;
      if (!element) return;
      const next = describe(element, byPointer);
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
      setTimeout(() => finish(true), 0);
    };
    const onKeyUp = (event: KeyboardEvent) => {
      if (event.shiftKey || event.key === 'Shift' || ((event.ctrlKey || event.metaKey) && event.key === 'a'))
        finish(false);
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
