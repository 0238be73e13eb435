import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the vendored scrapy-redis was looked for, for the error message. */
export interface ScrapyRedisLocation {
  dir: string | null;
  tried: string[];
}

/**
 * Finds the vendored scrapy-redis sources (the folder holding the `scrapy_redis` package): `$SCRAPY_REDIS_SRC` if
 * set, else `shared/vendor/scrapy-redis/src` walking up from this package (the monorepo keeps `shared/` beside the
 * repository root, so `../shared` of the root is found on the way), as the fingerprint vectors are found.
 */
export function locateScrapyRedisSrc(): ScrapyRedisLocation {
  const tried: string[] = [];
  const fromEnv = process.env['SCRAPY_REDIS_SRC'];
  if (fromEnv) {
    tried.push(resolve(fromEnv));
    return {
      dir: existsSync(join(fromEnv, 'scrapy_redis', 'scheduler.py')) ? resolve(fromEnv) : null,
      tried,
    };
  }
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'shared', 'vendor', 'scrapy-redis', 'src');
    tried.push(candidate);
    if (existsSync(join(candidate, 'scrapy_redis', 'scheduler.py'))) return { dir: candidate, tried };
    const parent = dirname(dir);
    if (parent === dir) return { dir: null, tried };
    dir = parent;
  }
}
