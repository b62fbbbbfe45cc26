import { defineConfig } from 'vitest/config';

// `npm run guide:screenshots`: runs only the guide's capture (not a test: it writes the
// screenshots the guide page shows), with the suite's database setup.
export default defineConfig({
  test: {
    include: ['test/guide/capture-guide-screens.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    testTimeout: 600_000,
    hookTimeout: 120_000,
    expect: { poll: { timeout: 20_000 } },
    reporters: ['default'],
  },
});
