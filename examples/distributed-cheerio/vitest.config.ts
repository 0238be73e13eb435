import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['@crawlee-distributed/test-utils/global-setup'],
    // The end-to-end suites start worker processes; one file at a time keeps 2 cores from thrashing.
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});
