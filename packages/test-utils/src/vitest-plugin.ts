import { readFileSync } from 'node:fs';

/**
 * Vite plugin that loads `*.lua` files as a default-exported string, the same as tsup's `loader: { '.lua': 'text' }`
 * does at build time, so tests run the Lua the package ships.
 */
export function luaAsText(): { name: string; load(id: string): string | null } {
  return {
    name: 'crawlee-distributed:lua-as-text',
    load(id: string) {
      if (!id.endsWith('.lua')) return null;
      return `export default ${JSON.stringify(readFileSync(id, 'utf8'))};`;
    },
  };
}

/**
 * The vitest settings every package of the monorepo shares: colocated `src/**\/*.test.ts` plus `test/**\/*.test.ts`,
 * the Redis globalSetup (`inject('redisUrl')`), `*.lua` as text, one file at a time (suites share Redis servers and
 * spawn processes; on 2 cores parallel files only thrash), and 60 s timeouts. Pass overrides for what differs.
 */
export function packageTestConfig(overrides: { isolate?: boolean; testTimeout?: number; hookTimeout?: number } = {}) {
  return {
    plugins: [luaAsText()],
    test: {
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      globalSetup: ['@crawlee-distributed/test-utils/global-setup'],
      fileParallelism: false,
      testTimeout: 60_000,
      hookTimeout: 60_000,
      ...overrides,
    },
  };
}
