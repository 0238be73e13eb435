import type { Plugin } from 'esbuild';
import { luaIncludesPlugin } from './esbuild-lua-plugin.js';
import { packageVersionDefine } from './package-version.js';

/** Every entry of the kit (`@crawlee-distributed/redis-kit`, `/seam`, ...). */
const KIT = /^@crawlee-distributed\/redis-kit/;

/** The tsup options {@link bundledPackageOptions} returns (a subset of tsup's `Options`, spread into `defineConfig`). */
export interface BundledPackageOptions {
  /** Class and function names kept as written (error names). */
  keepNames: boolean;
  /** The kit's code is bundled, never imported at run time. */
  noExternal: RegExp[];
  /** The kit's types are inlined into the package's `.d.ts` files. */
  dts: { resolve: RegExp[] };
  /** `*.lua` imports with every `--- @include` resolved ({@link luaIncludesPlugin}). */
  esbuildPlugins: Plugin[];
  /** `__PACKAGE_VERSION__` from the package's package.json ({@link packageVersionDefine}). */
  define: Record<string, string>;
}

/**
 * The build settings every published package shares: the private kit bundled (code with tsup `noExternal`, types
 * with `dts.resolve`), so the tarball never depends on it (`scripts/check-packages.mjs` checks); Lua with includes
 * resolved, the same resolver vitest uses (test-utils' plugin); the package's real version injected. Spread it into
 * the package's `defineConfig({ entry, format, ... })`.
 *
 * @param packageDir - the package folder (holding package.json)
 * @returns the options to spread
 * @throws Error when the package.json has no version
 */
export function bundledPackageOptions(packageDir: string): BundledPackageOptions {
  return {
    // Error classes set `name` from `new.target.name`: without keepNames esbuild renames a class whose name collides
    // in the bundle (`_RedisPermissionError`), and a user's `error.name === 'RedisPermissionError'` check fails.
    keepNames: true,
    noExternal: [KIT],
    dts: { resolve: [KIT] },
    esbuildPlugins: [luaIncludesPlugin()],
    define: packageVersionDefine(packageDir),
  };
}
