import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          include: ['{domain,platform,contract,services,projections,workers,scripts,test}/**/*.spec.ts'],
          exclude: ['**/node_modules/**'],
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      'web/vitest.config.ts',
      {
        test: {
          // The storefront in Debian's Chromium against the store started as the README starts it.
          name: 'e2e',
          include: ['web/e2e/**/*.e2e.spec.ts'],
          globalSetup: ['web/e2e/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
