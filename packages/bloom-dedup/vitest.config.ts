import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { packageTestConfig } from '@crawlee-distributed/test-utils/vitest';

export default defineConfig(packageTestConfig({ packageDir: fileURLToPath(new URL('.', import.meta.url)) }));
