import { packageVersionDefine, resolveLuaIncludes } from '@crawlee-distributed/redis-kit/build';

/**
 * Vite plugin that loads `*.lua` files as a default-exported string with every `--- @include` resolved by the
 * kit's resolver, the same one the packages' tsup builds use (`luaIncludesPlugin`), so tests run exactly the Lua
 * the package ships. A missing include or a cycle fails the test run with the file, line and folders searched.
 */
export function luaAsText(): { name: string; load(id: string): { code: string; map: null } | null } {
  return {
    name: 'crawlee-distributed:lua-includes',
    load(id: string) {
      if (!id.endsWith('.lua')) return null;
      const { source, files } = resolveLuaIncludes(id);
      // Vite watches what the script was assembled from, so editing a fragment re-runs the tests that use it.
      for (const file of files.slice(1)) (this as unknown as { addWatchFile?: (f: string) => void }).addWatchFile?.(file);
      return { code: `export default ${JSON.stringify(source)};`, map: null };
    },
  };
}

/** Options of {@link packageTestConfig}. */
export interface PackageTestConfigOptions {
  /** The package folder; its package.json version becomes `__PACKAGE_VERSION__` (as tsup's `define` does).
   * @defaultValue `process.cwd()` */
  packageDir?: string;
  isolate?: boolean;
  testTimeout?: number;
  hookTimeout?: number;
}

/**
 * The vitest settings every package of the monorepo shares: colocated `src/**\/*.test.ts` plus `test/**\/*.test.ts`,
 * the Redis globalSetup (`inject('redisUrl')`), `*.lua` with includes resolved, `__PACKAGE_VERSION__` from the
 * package's package.json, one file at a time (suites share Redis servers and spawn processes; on 2 cores parallel
 * files only thrash), and 60 s timeouts. Pass overrides for what differs.
 */
export function packageTestConfig(options: PackageTestConfigOptions = {}) {
  const { packageDir = process.cwd(), ...overrides } = options;
  return {
    plugins: [luaAsText()],
    define: packageVersionDefine(packageDir),
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
