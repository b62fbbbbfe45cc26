import { describe, expect, test } from 'vitest';
import { findMathError, mathSegments } from '../../../src/rules/math.ts';

describe('math in annotations', () => {
  test('finds inline and display formulas, not escaped or spaced dollars', () => {
    expect(mathSegments('Energy $E=mc^2$ and $$\\int_0^1 x\\,dx$$ cost \\$5 or $ 3 $')).toEqual([
      { tex: 'E=mc^2', display: false },
      { tex: '\\int_0^1 x\\,dx', display: true },
    ]);
  });

  test('valid math passes', () => {
    expect(findMathError('$a^2+b^2=c^2$ and $$\\frac{1}{2}$$')).toBeNull();
    expect(findMathError('no math at all')).toBeNull();
  });

  test.each([
    ['$x^1^2$', 'errors.mathDoubleSuperscript'],
    ['$x_1_2$', 'errors.mathDoubleSubscript'],
    ['$\\notacommand{x}$', 'errors.mathUndefinedControl'],
    ['$\\rule{x}{2em}$', 'errors.mathInvalidSize'],
    ['$\\textcolor{#12}{x}$', 'errors.mathInvalidColor'],
  ])('%s is refused with %s and KaTeX’s detail', (text, key) => {
    const error = findMathError(text);
    expect(error?.messageKey).toBe(key);
    expect(error?.detail.length).toBeGreaterThan(5);
  });
});
