import { cpSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { bundledPackageOptions } from '@crawlee-distributed/redis-kit/build';
import { defineConfig } from 'tsup';

const require = createRequire(import.meta.url);

export default defineConfig({
  entry: ['src/index.ts', 'src/internal.ts', 'src/cli/bin.ts'],
  format: ['esm', 'cjs'],
  clean: true,
  sourcemap: true,
  target: 'node20',
  removeNodeProtocol: false, // keep `node:timers` etc.: a bare `timers` does not resolve under vite (vitest)
  // The private kit bundled (code and types), Lua includes resolved, the version injected.
  ...bundledPackageOptions(fileURLToPath(new URL('.', import.meta.url))),
  shims: true, // import.meta.url in the CJS build (the dashboard finds its page next to the code)
  // The dashboard page and uPlot ship inside dist, so the dashboard works offline (no CDN).
  async onSuccess() {
    cpSync('src/dashboard/public', 'dist/dashboard', { recursive: true });
    mkdirSync('dist/dashboard/vendor', { recursive: true });
    for (const file of ['uPlot.iife.min.js', 'uPlot.min.css']) cpSync(require.resolve(`uplot/dist/${file}`), `dist/dashboard/vendor/${file}`);
  },
});
