#!/usr/bin/env node
// Redis bytes per pending request of the format-2 pending layout (layout C: format-2 records in `data`, FIFO list,
// forefront list, small back/held structures; docs/compact-frontier.md section 9), with the 0.1 layout (the anchor,
// built from git) side by side, on the benchmark's workload (bench/scale/workload.mjs) through the public API (Crawlee's RequestQueue over
// openRedisRequestQueue: driver.mjs). Each layout on a fresh redis-server of its own (default config), stopped by
// PID. A benchmark, not a test. Needs the built package (dist/).
//
// Options: --checkpoints 100000,1000000  --window 20000 (lock-and-handle window after each checkpoint)
//          --no-anchor  --out measurements/frontier-c.json
import console from 'node:console';
import { writeFileSync } from 'node:fs';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { URL, fileURLToPath, pathToFileURL } from 'node:url';
import { startRedisServer } from '@crawlee-distributed/test-utils';
import { buildAnchor } from './anchor.mjs';
import { runChild } from './children.mjs';

const { values: opts } = parseArgs({
  options: {
    checkpoints: { type: 'string', default: '100000,1000000' },
    window: { type: 'string', default: '20000' },
    'no-anchor': { type: 'boolean', default: false },
    out: { type: 'string', default: 'measurements/frontier-c.json' },
  },
});
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const checkpoints = opts.checkpoints.split(',').map(Number);
const impls = [['format 2 (layout C)', pathToFileURL(here('../../dist/index.js')).href]];
if (!opts['no-anchor']) impls.push(['0.1 (anchor)', buildAnchor()]);

const rows = [];
for (const [label, impl] of impls) {
  const server = await startRedisServer();
  try {
    const result = await runChild('driver.mjs', {
      backend: 'redis', impl, label, redisUrl: server.url, keyPrefix: 'pm', name: 'q', queueOptions: {},
      phase: 'pending', checkpoints, window: Number(opts.window), addWindow: 50_000, concurrency: 50, samples: 0, warmup: 0,
    }, { execArgv: ['--expose-gc'] });
    rows.push({ label, ...result });
  } finally {
    await server.destroy();
  }
}
writeFileSync(here(opts.out), `${JSON.stringify({ date: new Date().toISOString(), node: process.versions.node, checkpoints, rows }, null, 2)}\n`);
console.log('| layout | in queue | B/pending | add/s | lock+handle/s |');
console.log('|---|---:|---:|---:|---:|');
for (const row of rows) {
  for (const c of row.checkpoints) {
    console.log(`| ${row.label} | ${c.inQueue.toLocaleString('en')} | ${c.perPending.toFixed(1)} | ${Math.round(c.addRate)} | ${Math.round(c.lockAndHandleRate)} |`);
  }
}
