import { useCallback, useLayoutEffect, useRef, useState } from 'react';

export interface RowWindow {
  /** First and one-past-last row to render. */
  start: number;
  end: number;
}

/**
 * Windowing for a list that scrolls with the page: only the rows near the viewport are rendered,
 * each `rowHeight` pixels tall, plus `overscan` rows either side. 10,000 rows cost a few dozen
 * elements.
 */
export function useWindowedRows(rowCount: number, rowHeight: number, overscan = 4) {
  const ref = useRef<HTMLDivElement>(null);
  const [range, setRange] = useState<RowWindow>({ start: 0, end: Math.min(rowCount, 12) });
  const [width, setWidth] = useState(0);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const update = () => {
      const top = element.getBoundingClientRect().top;
      const first = Math.floor(-top / rowHeight) - overscan;
      const last = Math.ceil((window.innerHeight - top) / rowHeight) + overscan;
      const start = Math.min(Math.max(first, 0), rowCount);
      const end = Math.min(Math.max(last, start), rowCount);
      setRange((prev) => (prev.start === start && prev.end === end ? prev : { start, end }));
    };
    update();
    const observer = new ResizeObserver(() => {
      setWidth(element.clientWidth);
      update();
    });
    observer.observe(element);
    window.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    return () => {
      observer.disconnect();
      window.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
    };
  }, [rowCount, rowHeight, overscan]);

  /** Scrolls the page just enough to show row `index` below the sticky bars (`topInset` px). */
  const scrollToRow = useCallback(
    (index: number, topInset: number) => {
      const element = ref.current;
      if (!element) return;
      const rowTop = element.getBoundingClientRect().top + index * rowHeight;
      if (rowTop < topInset) window.scrollBy(0, rowTop - topInset);
      else if (rowTop + rowHeight > window.innerHeight)
        window.scrollBy(0, rowTop + rowHeight - window.innerHeight);
    },
    [rowHeight],
  );

  return { ref, ...range, width, totalHeight: rowCount * rowHeight, scrollToRow };
}
