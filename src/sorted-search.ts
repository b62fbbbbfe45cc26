/**
 * Binary search over a sorted range: the first index in [0, length) at which `before(index)` is
 * false, given that `before` is true for a prefix of the range and false after it (length when it
 * is true throughout).
 */
export function partitionPoint(length: number, before: (index: number) => boolean): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (before(middle)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The first index in ascending `values` whose value is >= `value` (values.length when none is). */
export function lowerBound(values: ArrayLike<number>, value: number): number {
  return partitionPoint(values.length, (i) => values[i]! < value);
}
