import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The `define` entry that injects a package's real version (from its package.json) as `__PACKAGE_VERSION__`, for
 * tsup's `define` and vitest's `define`, so `PACKAGE_VERSION` and every script name follow `changeset version`
 * without a hand-typed copy.
 *
 * @param packageDir - the package folder (holding package.json)
 * @returns `{ __PACKAGE_VERSION__: '"0.1.0"' }`
 */
export function packageVersionDefine(packageDir: string): { __PACKAGE_VERSION__: string } {
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version?: unknown };
  if (typeof version !== 'string' || version === '') throw new Error(`${packageDir}/package.json has no version`);
  return { __PACKAGE_VERSION__: JSON.stringify(version) };
}
