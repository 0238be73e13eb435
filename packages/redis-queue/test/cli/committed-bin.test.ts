// The committed bin (bin/crawlee-redis.js, what package.json `bin` names and `npm ci` links before any build) runs
// the built CLI, and says what to do when the package is not built yet instead of a module-not-found stack.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const pkgDir = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { bin: Record<string, string>; files: string[] };

describe('bin/crawlee-redis.js', () => {
  it('is the package bin, outside dist/ and in the published files', () => {
    expect(manifest.bin['crawlee-redis']).toBe('./bin/crawlee-redis.js');
    expect(manifest.files).toContain('bin');
  });

  it('runs the built CLI', () => {
    const res = spawnSync(process.execPath, [join(pkgDir, 'bin/crawlee-redis.js'), '--help'], { encoding: 'utf8' });
    expect(res.status).toBe(0);
    expect(res.stdout).toContain('Usage: crawlee-redis');
  });

  it('before a build: exit 2 with what to run, no stack trace', () => {
    const dir = mkdtempSync(join(tmpdir(), 'crawlee-redis-bin-'));
    try {
      mkdirSync(join(dir, 'bin'));
      copyFileSync(join(pkgDir, 'bin/crawlee-redis.js'), join(dir, 'bin/crawlee-redis.js'));
      const res = spawnSync(process.execPath, [join(dir, 'bin/crawlee-redis.js'), 'ls'], { encoding: 'utf8' });
      expect(res.status).toBe(2);
      expect(res.stderr).toMatch(/not built yet\. Run `npm run build`/);
      expect(res.stderr).not.toMatch(/\n\s+at /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
