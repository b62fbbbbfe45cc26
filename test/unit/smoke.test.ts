import { expect, test } from 'vitest';

test('vitest runs on the project Node', () => {
  expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
});
