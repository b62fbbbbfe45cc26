import { expect, test } from 'vitest';
import { isAnonymousNickname } from '../../../src/rules/nickname.ts';

test('"nick" followed by digits counts as anonymous', () => {
  expect(isAnonymousNickname('nick1')).toBe(true);
  expect(isAnonymousNickname('nick20250912')).toBe(true);
});

test('anything else is a chosen nickname', () => {
  for (const name of ['nick', 'nickname', 'Nick123', 'nick12a', 'mynick12', ' nick12', 'nick１２', '']) {
    expect(isAnonymousNickname(name), name).toBe(false);
  }
  expect(isAnonymousNickname(null)).toBe(false);
});
