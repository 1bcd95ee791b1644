import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{shared,services,projections,workers,scripts,test}/**/*.spec.ts'],
    exclude: ['**/node_modules/**'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
