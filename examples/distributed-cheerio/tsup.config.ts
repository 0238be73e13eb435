import { defineConfig } from 'tsup';

export default defineConfig({
  // cli.js is what `npm start` runs; fleet-worker.js is what its coordinator forks; worker.js is the standalone
  // worker (src/worker.ts) you run yourself in N processes.
  entry: ['src/cli.ts', 'src/fleet-worker.ts', 'src/worker.ts', 'src/index.ts'],
  format: ['esm'],
  dts: { entry: 'src/index.ts' },
  clean: true,
  sourcemap: true,
  target: 'node20',
  banner: {},
});
