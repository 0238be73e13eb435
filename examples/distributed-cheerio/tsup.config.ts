import { defineConfig } from 'tsup';

export default defineConfig({
  // cli.js is what `npm start` runs; worker.js is what the coordinator forks (one file per process kind).
  entry: ['src/cli.ts', 'src/worker.ts', 'src/index.ts'],
  format: ['esm'],
  dts: { entry: 'src/index.ts' },
  clean: true,
  sourcemap: true,
  target: 'node20',
  banner: {},
});
