import { luaIncludesPlugin, packageVersionDefine } from '@crawlee-distributed/redis-kit/build';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ["src/index.ts", "src/internal.ts"],
  format: ['esm', 'cjs'],
  dts: { resolve: [/^@crawlee-distributed\/redis-kit/] },
  clean: true,
  sourcemap: true,
  target: 'node20',
  removeNodeProtocol: false, // keep `node:timers` etc.: a bare `timers` does not resolve under vite (vitest)
  // The private kit is bundled (code and types): the tarball never depends on it.
  noExternal: [/^@crawlee-distributed\/redis-kit/],
  // Lua with `--- @include` resolved, the same resolver vitest uses (test-utils' vitest plugin).
  esbuildPlugins: [luaIncludesPlugin()],
  define: packageVersionDefine(fileURLToPath(new URL('.', import.meta.url))),
});
