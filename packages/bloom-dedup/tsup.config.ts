import { bundledPackageOptions } from '@crawlee-distributed/redis-kit/build';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/internal.ts'],
  format: ['esm', 'cjs'],
  clean: true,
  sourcemap: true,
  target: 'node20',
  removeNodeProtocol: false, // keep `node:timers` etc.: a bare `timers` does not resolve under vite (vitest)
  // The private kit bundled (code and types), Lua includes resolved, the version injected.
  ...bundledPackageOptions(fileURLToPath(new URL('.', import.meta.url))),
});
