import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/global-setup.ts', 'src/vitest-plugin.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  removeNodeProtocol: false, // keep `node:timers` etc.: a bare `timers` does not resolve under vite (vitest)
});
