import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/global-setup.ts', 'src/vitest-plugin.ts', 'src/readme-snippets.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  // The root's TypeScript (a devDependency of the monorepo), for the README snippet checks; never bundled.
  external: ['typescript'],
  removeNodeProtocol: false, // keep `node:timers` etc.: a bare `timers` does not resolve under vite (vitest)
});
