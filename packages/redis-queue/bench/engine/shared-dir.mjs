// Finds a folder of the workspace's `shared/` (kept beside the repository root, so walking up from here finds it),
// as the packages' tests find the fingerprint vectors and the vendored scrapy-redis.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { URL, fileURLToPath } from 'node:url';

/** The absolute path of `shared/<sub>` walking up from this folder, or undefined when none is there. */
export function sharedPath(sub) {
  let dir = fileURLToPath(new URL('.', import.meta.url));
  for (;;) {
    const candidate = join(dir, 'shared', sub);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
