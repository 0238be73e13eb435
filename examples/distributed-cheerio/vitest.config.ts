import { defineConfig } from 'vitest/config';
import { packageTestConfig } from '@crawlee-distributed/test-utils/vitest';

// The end-to-end suites crawl whole sites with several worker processes.
export default defineConfig(packageTestConfig({ testTimeout: 300_000, hookTimeout: 120_000 }));
