import { describe, expect, test } from 'vitest';
import { isBigScreen, isMobileSidebar, isSmallScreen, screenSize } from '../../../src/rules/screen-size.ts';

describe('screen sizes: sm up to 640, md 768, lg 1024, xl 1280, else 2xl', () => {
  test.each([
    [320, 'sm'],
    [640, 'sm'],
    [641, 'md'],
    [768, 'md'],
    [769, 'lg'],
    [1024, 'lg'],
    [1025, 'xl'],
    [1280, 'xl'],
    [1281, '2xl'],
    [2560, '2xl'],
  ] as const)('%i px is %s', (width, size) => expect(screenSize(width)).toBe(size));
});

test('a small screen is below 900', () => {
  expect(isSmallScreen(899)).toBe(true);
  expect(isSmallScreen(900)).toBe(false);
});

test('a big screen is above 980', () => {
  expect(isBigScreen(980)).toBe(false);
  expect(isBigScreen(981)).toBe(true);
});

test('the mobile left sidebar applies at 600 or less', () => {
  expect(isMobileSidebar(600)).toBe(true);
  expect(isMobileSidebar(601)).toBe(false);
});
