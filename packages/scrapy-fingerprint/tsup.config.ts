import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ["src/index.ts", "src/internal.ts", "src/cli.ts"],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  removeNodeProtocol: false, // keep `node:timers` etc.: a bare `timers` does not resolve under vite (vitest)
  loader: { '.lua': 'text' },
  shims: true, // import.meta.url in the CommonJS build (src/crawlee/crawlee-log.ts)
});
