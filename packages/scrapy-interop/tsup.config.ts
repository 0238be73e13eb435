import { defineConfig } from 'tsup';

export default defineConfig({
  // crawlee-worker.js is what the tests fork (one Crawlee worker per process); index.js is the harness.
  entry: ['src/index.ts', 'src/crawlee-worker.ts'],
  format: ['esm'],
  dts: { entry: 'src/index.ts' },
  clean: true,
  sourcemap: true,
  target: 'node20',
  removeNodeProtocol: false, // keep `node:timers` etc.: a bare `timers` does not resolve under vite (vitest)
});
