import { defineConfig } from 'vitest/config';
import { packageTestConfig } from '@crawlee-distributed/test-utils/vitest';

// Each suite runs real Scrapy and Crawlee processes against one local site and its own redis-server.
export default defineConfig(packageTestConfig({ testTimeout: 180_000, hookTimeout: 60_000 }));
