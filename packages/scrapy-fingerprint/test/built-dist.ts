import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root. */
export const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.name.endsWith('.test.ts')) continue;
    newest = Math.max(newest, entry.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * Path of a built file in dist/, building the package first when dist/ is missing or older than src/ (tests of
 * the CLI and the benchmark run the built code, as users do).
 */
export function builtFile(name: string): string {
  const file = join(PACKAGE_DIR, 'dist', name);
  if (!existsSync(file) || statSync(file).mtimeMs < newestSource(join(PACKAGE_DIR, 'src'))) {
    execFileSync('npx', ['tsup'], { cwd: PACKAGE_DIR, stdio: 'ignore' });
  }
  return file;
}
