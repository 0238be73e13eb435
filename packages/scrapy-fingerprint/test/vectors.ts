import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the shared vectors were looked for, for the error message. */
export interface VectorsLocation {
  dir: string | null;
  tried: string[];
}

/**
 * Finds `shared/conformance/fingerprint`: `$SCRAPY_CONFORMANCE_DIR` if set, else walking up from this package
 * (the monorepo keeps `shared/` beside the repository root, so `../shared` of the root is found on the way up).
 */
export function locateVectors(): VectorsLocation {
  const tried: string[] = [];
  const fromEnv = process.env['SCRAPY_CONFORMANCE_DIR'];
  if (fromEnv) {
    tried.push(resolve(fromEnv));
    return { dir: existsSync(join(fromEnv, 'expected.jsonl')) ? resolve(fromEnv) : null, tried };
  }
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'shared', 'conformance', 'fingerprint');
    tried.push(candidate);
    if (existsSync(join(candidate, 'expected.jsonl'))) return { dir: candidate, tried };
    const parent = dirname(dir);
    if (parent === dir) return { dir: null, tried };
    dir = parent;
  }
}

/** Reads a JSON-lines file. */
export function readJsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/**
 * Finds the vendored scrapy-redis sources (the folder holding the `scrapy_redis` package): `$SCRAPY_REDIS_SRC` if
 * set, else `shared/vendor/scrapy-redis/src` walking up from this package (`../shared` of the repository root).
 */
export function locateScrapyRedisSrc(): VectorsLocation {
  const tried: string[] = [];
  const fromEnv = process.env['SCRAPY_REDIS_SRC'];
  if (fromEnv) {
    tried.push(resolve(fromEnv));
    return { dir: existsSync(join(fromEnv, 'scrapy_redis', 'dupefilter.py')) ? resolve(fromEnv) : null, tried };
  }
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'shared', 'vendor', 'scrapy-redis', 'src');
    tried.push(candidate);
    if (existsSync(join(candidate, 'scrapy_redis', 'dupefilter.py'))) return { dir: candidate, tried };
    const parent = dirname(dir);
    if (parent === dir) return { dir: null, tried };
    dir = parent;
  }
}
