import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { packageTestConfig } from '@crawlee-distributed/test-utils/vitest';

// One worker runs every file in turn; sharing its module cache avoids importing Crawlee once per file (most of the
// run time on 2 busy cores). Tests restore what they change (fake timers, servers they start).
export default defineConfig(packageTestConfig({ packageDir: fileURLToPath(new URL('.', import.meta.url)), isolate: false }));
