import { closeSync, existsSync, mkdirSync, openSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from './errors/usage-error.js';
import type { RunOptions } from './options.js';

/**
 * Checks that a file the run writes at its end can be written, so a bad path fails before the crawl, not after it:
 * creates the missing folders and opens the file for appending, then removes whatever the check created.
 *
 * @param flag - the option, for the message
 * @param path - the absolute path
 * @throws {@link UsageError} saying why the path cannot be written
 */
export function assertWritableFile(flag: string, path: string): void {
  const fail = (why: string): never => {
    throw new UsageError(`${flag} ${path} cannot be written: ${why}.`);
  };
  if (existsSync(path) && statSync(path).isDirectory()) fail('it is a folder');
  const existed = existsSync(path);
  // The missing folders, outermost first, created one by one: Node's recursive mkdirSync spins for ever on a path
  // the kernel refuses with ENOENT (e.g. under /proc).
  const missing: string[] = [];
  for (let folder = dirname(path); !existsSync(folder); folder = dirname(folder)) missing.unshift(folder);
  let createdFolder: string | undefined;
  try {
    for (const folder of missing) {
      mkdirSync(folder);
      createdFolder ??= folder;
    }
    closeSync(openSync(path, 'a'));
  } catch (error) {
    fail((error as Error).message);
  } finally {
    if (!existed) rmSync(path, { force: true });
    if (createdFolder !== undefined) rmSync(createdFolder, { recursive: true, force: true });
  }
}

/** {@link assertWritableFile} for `--output` and `--summary-json`. @param options - the validated options */
export function assertOutputPathsWritable(options: Pick<RunOptions, 'output' | 'summaryJson'>): void {
  assertWritableFile('--output', options.output);
  if (options.summaryJson !== undefined) assertWritableFile('--summary-json', options.summaryJson);
}
