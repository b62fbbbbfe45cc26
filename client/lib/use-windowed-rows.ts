import { type RefObject, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { partitionPoint } from '../../src/sorted-search.ts';

export interface RowWindow {
  /** First and one-past-last row to render. */
  start: number;
  end: number;
}

export interface WindowedRowsOptions {
  /** Rows rendered beyond each edge of the viewport. */
  overscan?: number;
  /** The element the list scrolls in; the page when absent. */
  scroller?: RefObject<HTMLElement | null>;
  /**
   * Rows differ in height: each rendered row is measured (give it `measure(index)` as its ref) and
   * `rowHeight` only estimates the rows not rendered yet. `keyOf` names a row, so its measured
   * height stays with it when rows are added or removed.
   */
  keyOf?: (index: number) => string;
}

/** The row at `value`: the last whose offset is <= `value` in an ascending list. */
function rowAt(offsets: Float64Array, value: number): number {
  return partitionPoint(offsets.length, (i) => offsets[i]! <= value) - 1;
}

/**
 * Windowing for a long list: only the rows near the viewport are rendered (10,000 rows cost a few
 * dozen elements), each placed at `offsetOf(index)` in a box `totalHeight` tall. Rows are
 * `rowHeight` pixels apart, or measured when `keyOf` is given. The list scrolls with the page, or
 * inside `scroller`.
 */
export function useWindowedRows<List extends HTMLElement = HTMLDivElement>(
  rowCount: number,
  rowHeight: number,
  options: WindowedRowsOptions = {},
) {
  const { overscan = 4, scroller, keyOf } = options;
  const ref = useRef<List>(null);
  const [range, setRange] = useState<RowWindow>({ start: 0, end: Math.min(rowCount, 12) });
  const [width, setWidth] = useState(0);
  const heights = useRef(new Map<string, number>());
  const [measuredVersion, setMeasuredVersion] = useState(0);

  // offsets[i]: where row i starts; offsets[rowCount]: the total height. Fixed rows need none.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new measurement is a new version
  const offsets = useMemo(() => {
    if (!keyOf) return undefined;
    const list = new Float64Array(rowCount + 1);
    for (let i = 0; i < rowCount; i++) list[i + 1] = list[i]! + (heights.current.get(keyOf(i)) ?? rowHeight);
    return list;
  }, [keyOf, rowCount, rowHeight, measuredVersion]);
  const offsetOf = useCallback(
    (index: number) => (offsets ? offsets[index]! : index * rowHeight),
    [offsets, rowHeight],
  );
  const totalHeight = offsets ? offsets[rowCount]! : rowCount * rowHeight;

  // A passive effect: measuring the list (a forced layout) waits until the frame that shows its
  // first rows has painted; those (from the top, as the page loads) need no measure.
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const box = scroller?.current ?? null;
    const update = () => {
      const viewTop = box ? box.getBoundingClientRect().top + box.clientTop : 0;
      const viewHeight = box ? box.clientHeight : window.innerHeight;
      // The part of the list inside the viewport, in the list's own pixels.
      const from = viewTop - element.getBoundingClientRect().top;
      const to = from + viewHeight;
      const first = (offsets ? rowAt(offsets, from) : Math.floor(from / rowHeight)) - overscan;
      const last = (offsets ? rowAt(offsets, to) + 1 : Math.ceil(to / rowHeight)) + overscan;
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
    if (box) observer.observe(box);
    const scrolling: HTMLElement | Window = box ?? window;
    scrolling.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    return () => {
      observer.disconnect();
      scrolling.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
    };
  }, [rowCount, rowHeight, overscan, scroller, offsets]);

  // Measured rows: one observer for every rendered row, each known by its key.
  const rowKeys = useRef(new WeakMap<Element, string>());
  const rowObserver = useMemo(() => {
    if (!keyOf || typeof ResizeObserver === 'undefined') return undefined;
    return new ResizeObserver((entries) => {
      let changed = false;
      for (const entry of entries) {
        const key = rowKeys.current.get(entry.target);
        const height = (entry.target as HTMLElement).offsetHeight;
        if (key === undefined || height === 0 || heights.current.get(key) === height) continue;
        heights.current.set(key, height);
        changed = true;
      }
      if (changed) setMeasuredVersion((version) => version + 1);
    });
  }, [keyOf]);
  useLayoutEffect(() => () => rowObserver?.disconnect(), [rowObserver]);
  const measure = useCallback(
    (index: number) => (element: HTMLElement | null) => {
      if (!element || !keyOf || !rowObserver) return;
      rowKeys.current.set(element, keyOf(index));
      rowObserver.observe(element);
      return () => rowObserver.unobserve(element);
    },
    [keyOf, rowObserver],
  );

  /** Scrolls the page just enough to show row `index` below the sticky bars (`topInset` px). */
  const scrollToRow = useCallback(
    (index: number, topInset: number) => {
      const element = ref.current;
      if (!element) return;
      const rowTop = element.getBoundingClientRect().top + offsetOf(index);
      const rowBottom = element.getBoundingClientRect().top + offsetOf(index + 1);
      if (rowTop < topInset) window.scrollBy(0, rowTop - topInset);
      else if (rowBottom > window.innerHeight) window.scrollBy(0, rowBottom - window.innerHeight);
    },
    [offsetOf],
  );

  return { ref, ...range, width, totalHeight, offsetOf, measure, scrollToRow };
}
