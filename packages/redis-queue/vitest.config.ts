import { defineConfig } from 'vitest/config';
import { luaAsText } from '@crawlee-distributed/test-utils/vitest';

export default defineConfig({
  plugins: [luaAsText()],
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['@crawlee-distributed/test-utils/global-setup'],
    // Suites share Redis servers and spawn processes; one file at a time keeps timings honest on 2 cores.
    fileParallelism: false,
    // One worker runs every file in turn; sharing its module cache avoids importing Crawlee once per file (most of the
    // run time on 2 busy cores). Tests restore what they change (fake timers, servers they start).
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
