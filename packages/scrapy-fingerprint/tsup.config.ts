import { bundledPackageOptions } from '@crawlee-distributed/redis-kit/build';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/internal.ts', 'src/cli.ts'],
  format: ['esm', 'cjs'],
  clean: true,
  sourcemap: true,
  target: 'node20',
  removeNodeProtocol: false, // keep `node:timers` etc.: a bare `timers` does not resolve under vite (vitest)
  shims: true, // import.meta.url in the CommonJS build (src/crawlee/crawlee-log.ts)
  // The private kit bundled (code and types: only its import-free `/seam` entry is used here), the version injected.
  ...bundledPackageOptions(fileURLToPath(new URL('.', import.meta.url))),
});
