// One-off generator for the per-package boilerplate (package.json, tsconfig, tsup and vitest configs).
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
const repo = 'git+https://github.com/crawlee-distributed/crawlee-distributed.git';
const pkgs = [
  {
    dir: 'packages/scrapy-fingerprint', name: 'crawlee-scrapy-fingerprint',
    description: "Scrapy's request fingerprint and w3lib's canonical URL for Crawlee, byte for byte.",
    deps: { 'iconv-lite': '^0.7.3', punycode: '^2.3.1', commander: '^14.0.3' },
    peers: { crawlee: '^3.18.0' }, peerMeta: { crawlee: { optional: true } },
    dev: { crawlee: '3.18.1', 'fast-check': '4.10.2' },
    bin: { 'crawlee-scrapy-fingerprint': './dist/cli.js' }, entries: ['src/index.ts', 'src/cli.ts'],
    keywords: ['crawlee', 'scrapy', 'fingerprint', 'canonicalize_url', 'w3lib', 'dupefilter'],
  },
  {
    dir: 'packages/redis-queue', name: 'crawlee-redis-queue',
    description: 'A Redis request queue for Crawlee that many processes share, with locks that survive worker crashes.',
    deps: {}, peers: { crawlee: '^3.18.0', ioredis: '^5.9.0 || ^6.0.0' },
    dev: { crawlee: '3.18.1', ioredis: '6.0.0', ioredis5: 'npm:ioredis@5.9.2' },
    entries: ['src/index.ts'],
    keywords: ['crawlee', 'redis', 'request queue', 'distributed', 'scrapy-redis'],
  },
  {
    dir: 'packages/bloom-dedup', name: 'crawlee-bloom-dedup',
    description: 'Dedup stores for Crawlee queues: in-memory Bloom filter, Redis Bloom filter and exact Redis set.',
    deps: { 'bloom-filters': '3.0.4' }, peers: { crawlee: '^3.18.0', ioredis: '^5.9.0 || ^6.0.0' },
    peerMeta: { ioredis: { optional: true } },
    dev: { crawlee: '3.18.1', ioredis: '6.0.0' },
    entries: ['src/index.ts'],
    keywords: ['crawlee', 'bloom filter', 'redis', 'dupefilter', 'dedup'],
  },
];
for (const p of pkgs) {
  mkdirSync(`${p.dir}/src`, { recursive: true });
  const exportsMap = { '.': { import: { types: './dist/index.d.ts', default: './dist/index.js' }, require: { types: './dist/index.d.cts', default: './dist/index.cjs' } }, './package.json': './package.json' };
  const json = {
    name: p.name, version: '0.1.0', description: p.description, keywords: p.keywords, license: 'MIT',
    type: 'module', sideEffects: false, engines: { node: '>=20' }, files: ['dist', 'README.md', 'CHANGELOG.md'],
    main: './dist/index.cjs', module: './dist/index.js', types: './dist/index.d.cts', exports: exportsMap,
    ...(p.bin ? { bin: p.bin } : {}),
    scripts: { build: 'tsup', typecheck: 'tsc --noEmit', lint: 'eslint .', test: 'vitest run', bench: 'node bench/run.mjs' },
    dependencies: p.deps, peerDependencies: p.peers, ...(p.peerMeta ? { peerDependenciesMeta: p.peerMeta } : {}),
    devDependencies: { '@crawlee-distributed/test-utils': '*', ...p.dev },
    publishConfig: { access: 'public' },
    repository: { type: 'git', url: repo, directory: p.dir },
  };
  writeFileSync(`${p.dir}/package.json`, JSON.stringify(json, null, 2) + '\n');
  writeFileSync(`${p.dir}/tsconfig.json`, JSON.stringify({ extends: '../../tsconfig.base.json', compilerOptions: { outDir: 'dist', rootDir: '.' }, include: ['src', 'test', 'bench', '*.ts'] }, null, 2) + '\n');
  writeFileSync(`${p.dir}/tsup.config.ts`, `import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ${JSON.stringify(p.entries)},
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  loader: { '.lua': 'text' },
});
`);
  writeFileSync(`${p.dir}/vitest.config.ts`, `import { defineConfig } from 'vitest/config';
import { luaAsText } from '@crawlee-distributed/test-utils/vitest';

export default defineConfig({
  plugins: [luaAsText()],
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['@crawlee-distributed/test-utils/global-setup'],
    // Suites share Redis servers and spawn processes; one file at a time keeps timings honest on 2 cores.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
`);
  if (!existsSync(`${p.dir}/src/index.ts`)) writeFileSync(`${p.dir}/src/index.ts`, `export {};\n`);
}
