import { defineConfig } from 'vitest/config';
import { packageTestConfig } from '@crawlee-distributed/test-utils/vitest';

export default defineConfig(packageTestConfig());
