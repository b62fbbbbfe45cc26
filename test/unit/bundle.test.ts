import { expect, test } from 'vitest';
import { CLIENT_DIST } from '../../server/static.ts';
import { ensureClientBuilt } from '../helpers/browser.ts';
import { homeRouteScripts } from '../helpers/bundle.ts';

const BUDGET_BYTES = 150 * 1024;

test('the home route loads under 150 KB of gzipped JavaScript', () => {
  ensureClientBuilt();
  const scripts = homeRouteScripts(CLIENT_DIST);
  const total = scripts.reduce((sum, s) => sum + s.gzipBytes, 0);
  console.log(`home route JS: ${(total / 1024).toFixed(1)} KB gzipped in ${scripts.length} files`);
  expect(scripts.length).toBeGreaterThan(0);
  expect(total).toBeLessThan(BUDGET_BYTES);
});
