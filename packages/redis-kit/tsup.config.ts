import { defineConfig } from 'tsup';

// ESM only: the kit is read by tsup configs, vitest and the packages' bundler, never by users (each published
// package bundles it with `noExternal`).
export default defineConfig({
  entry: ['src/index.ts', 'src/seam/index.ts', 'src/options/known-options.ts', 'src/build/index.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  removeNodeProtocol: false, // keep `node:timers` etc.: a bare `timers` does not resolve under vite (vitest)
});
