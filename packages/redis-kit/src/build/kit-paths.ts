import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function kitRoot(): string {
  // Works from src/build/*.ts (the kit's tests) and from dist/build/*.js (tsup configs, test-utils' bundle).
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === '@crawlee-distributed/redis-kit') {
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('@crawlee-distributed/redis-kit: cannot find its own package.json above ' + import.meta.url);
    dir = parent;
  }
}

/** The kit's shared Lua fragments (`src/lua/includes/*.lua`), searched after a package's own includes. */
export const KIT_LUA_INCLUDES_DIR = join(kitRoot(), 'src', 'lua', 'includes');
