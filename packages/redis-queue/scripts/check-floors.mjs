#!/usr/bin/env node
// The floor plan of src/: each top-level folder is one floor, and a file may import only from its own folder or from
// a folder on a lower floor (earlier in FLOORS). Imports run one way, so a lower floor never learns what is built on
// it and no folder-level circle can come back. Test files (*.test.ts) are not checked: a test may reach up to drive
// its part through the real stack above it. Run by `npm run lint`; exits 1 naming each import that runs back up.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

/** Lowest first. '.' is the files directly in src/: the package's entry points, on top. */
export const FLOORS = [
  'lua', // the scripts and the reply-code table, no imports
  'errors', // typed errors
  'core', // connection, key layout, script registry, reply codes, record format, codec, request rules, meta numbers, replica wait
  'options', // option checks every feature uses
  'stats', // features: each uses core and the features listed before it
  'politeness',
  'dataset',
  'lease',
  'liveness',
  'scrapy',
  'filter',
  'takeover',
  'feed',
  'queue', // the queue hub: QueueCore and its parts, over the features
  'shard', // ShardedQueueCore: one queue over many QueueCores
  'storage', // the Crawlee adapter (StorageClient, RequestQueue)
  'admin', // RedisQueueAdmin, over single and sharded queues
  'metrics',
  'dashboard',
  'cli',
  '.',
];

const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)(['"])(\.{1,2}\/[^'"]+)\1/gm;

function floorOf(srcDir, file) {
  const rel = relative(srcDir, file).split(sep);
  return rel.length === 1 ? '.' : rel[0];
}

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * @param srcDir - the package's src folder
 * @returns one line per import that runs from a floor to a higher one (or to a folder FLOORS does not list)
 */
export function floorViolations(srcDir) {
  const problems = [];
  for (const file of sourceFiles(srcDir)) {
    const from = floorOf(srcDir, file);
    const fromLevel = FLOORS.indexOf(from);
    if (fromLevel < 0) {
      problems.push(`${relative(srcDir, file)}: folder ${from} is not in the floor list (scripts/check-floors.mjs)`);
      continue;
    }
    for (const [, , spec] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolve(dirname(file), spec);
      if (relative(srcDir, target).startsWith('..')) continue; // outside src (another package's test helper)
      const to = floorOf(srcDir, target);
      const toLevel = FLOORS.indexOf(to);
      if (toLevel < 0 || toLevel > fromLevel) {
        problems.push(`${relative(srcDir, file)} (floor ${from}) imports ${spec} (floor ${toLevel < 0 ? `${to}, not listed` : to})`);
      }
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const srcDir = resolve(dirname(fileURLToPath(import.meta.url)), '../src');
  const problems = floorViolations(srcDir);
  for (const line of problems) process.stderr.write(`import runs back up: ${line}\n`);
  if (problems.length > 0) process.exit(1);
  process.stdout.write(`floors: every import of src/ runs down (${FLOORS.length} floors)\n`);
}
