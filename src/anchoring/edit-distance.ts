// Myers' bit-parallel approximate string matching (Myers 1999, block form for any pattern length):
// for each position of a text window, the Levenshtein distance between a pattern and the best
// substring ending (or, scanning backward, starting) there, in O(window * pattern / 32).

export interface CompiledPattern {
  length: number;
  blockCount: number;
  /** Per code unit, a bit mask per 32-unit block of where it occurs in the pattern. */
  peq: Map<number, Int32Array>;
  /** The bit of the last pattern row inside the last block. */
  lastRowBit: number;
  zero: Int32Array;
}

export function compilePattern(pattern: string, reversed = false): CompiledPattern {
  const length = pattern.length;
  const blockCount = Math.max(1, Math.ceil(length / 32));
  const peq = new Map<number, Int32Array>();
  for (let i = 0; i < length; i++) {
    const code = pattern.charCodeAt(reversed ? length - 1 - i : i);
    let masks = peq.get(code);
    if (!masks) {
      masks = new Int32Array(blockCount);
      peq.set(code, masks);
    }
    masks[i >>> 5]! |= 1 << (i & 31);
  }
  const lastRowBit = length === 0 ? 0 : 1 << ((length - 1) & 31);
  return { length, blockCount, peq, lastRowBit, zero: new Int32Array(blockCount) };
}

export interface ScanOptions {
  /** Scan from `to - 1` down to `from`, matching a pattern compiled with `reversed`. */
  backward?: boolean;
  /**
   * Anchor the match at the first scanned position (the substring must start at `from`, or end at
   * `to` when scanning backward), giving plain Levenshtein distance to each prefix of the window.
   */
  anchored?: boolean;
  /** Among equally good positions prefer the one nearest this offset. */
  target?: number;
}

export interface ScanResult {
  distance: number;
  /** End of the matched substring (forward) or its start (backward). */
  offset: number;
  /** Every offset reaching `distance`, nearest to the target first. */
  ties: number[];
}

export function bestMatch(
  pattern: CompiledPattern,
  text: string,
  from: number,
  to: number,
  options: ScanOptions = {},
): ScanResult {
  const { backward = false, anchored = false } = options;
  const target = options.target ?? (backward ? to : from);
  const { blockCount, peq, lastRowBit, zero } = pattern;
  if (pattern.length === 0) return { distance: 0, offset: target, ties: [target] };
  const positive = new Int32Array(blockCount).fill(-1);
  const negative = new Int32Array(blockCount);
  let score = pattern.length;
  let bestDistance = score;
  let ties = [backward ? to : from];

  const steps = to - from;
  for (let step = 0; step < steps; step++) {
    const position = backward ? to - 1 - step : from + step;
    const eqBlocks = peq.get(text.charCodeAt(position)) ?? zero;
    let horizontal = anchored ? 1 : 0;
    for (let b = 0; b < blockCount; b++) {
      const pv = positive[b]!;
      const mv = negative[b]!;
      let eq = eqBlocks[b]!;
      const xv = eq | mv;
      if (horizontal < 0) eq |= 1;
      const xh = (((eq & pv) + pv) ^ pv) | eq;
      let ph = mv | ~(xh | pv);
      let mh = pv & xh;
      const rowBit = b === blockCount - 1 ? lastRowBit : 1 << 31;
      const out = (ph & rowBit) !== 0 ? 1 : (mh & rowBit) !== 0 ? -1 : 0;
      ph <<= 1;
      mh <<= 1;
      if (horizontal < 0) mh |= 1;
      else if (horizontal > 0) ph |= 1;
      positive[b] = mh | ~(xv | ph);
      negative[b] = ph & xv;
      horizontal = out;
    }
    score += horizontal;
    if (score < bestDistance) {
      bestDistance = score;
      ties = [backward ? position : position + 1];
    } else if (score === bestDistance) {
      ties.push(backward ? position : position + 1);
    }
  }
  ties.sort((a, b) => Math.abs(a - target) - Math.abs(b - target));
  return { distance: bestDistance, offset: ties[0]!, ties };
}

/** Plain Levenshtein distance, for short strings (quadratic). */
export function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1);
      current.push(Math.min(substitution, previous[j]! + 1, current[j - 1]! + 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
