import { accessSync, closeSync, constants, lstatSync, mkdirSync, openSync, readlinkSync, rmSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from './errors/usage-error.js';
import type { RunOptions } from './options.js';

/**
 * Checks that a file the run writes at its end can be written, so a bad path fails before the crawl, not after it.
 * An existing file (or a symlink to one) must be writable; for a new one, the missing folders and the file are
 * created and removed again, so the check leaves nothing behind; a dangling symlink is checked at its target.
 *
 * @param flag - the option, for the message
 * @param path - the absolute path
 * @throws {@link UsageError} saying why the path cannot be written
 */
export function assertWritableFile(flag: string, path: string): void {
  const fail = (why: string): never => {
    throw new UsageError(`${flag} ${path} cannot be written: ${why}.`);
  };
  let target = path;
  for (let hops = 0; ; hops++) {
    const entry = lstatOrUndefined(target);
    if (entry === undefined) break;
    if (entry.isSymbolicLink()) {
      if (hops >= 16) fail('too many symbolic links');
      target = resolve(dirname(target), readlinkSync(target));
      continue;
    }
    if (entry.isDirectory()) fail(target === path ? 'it is a folder' : `it links to the folder ${target}`);
    try {
      accessSync(target, constants.W_OK);
    } catch (error) {
      fail((error as Error).message);
    }
    return;
  }
  probeNewFile(target, fail);
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** Creates the missing folders and the file, then removes exactly what it created. */
function probeNewFile(path: string, fail: (why: string) => never): void {
  // The missing folders, outermost first, created one by one: Node's recursive mkdirSync spins for ever on a path
  // the kernel refuses with ENOENT (e.g. under /proc).
  const missing: string[] = [];
  for (let folder = dirname(path); lstatOrUndefined(folder) === undefined; folder = dirname(folder)) missing.unshift(folder);
  const created: string[] = [];
  let error: Error | undefined;
  try {
    for (const folder of missing) {
      mkdirSync(folder);
      created.push(folder);
    }
    closeSync(openSync(path, 'wx'));
    created.push(path);
  } catch (caught) {
    error = caught as Error;
  }
  for (const made of created.reverse()) rmSync(made, { recursive: true, force: true });
  if (error !== undefined) fail(error.message);
}

/** {@link assertWritableFile} for `--output` and `--summary-json`. @param options - the validated options */
export function assertOutputPathsWritable(options: Pick<RunOptions, 'output' | 'summaryJson'>): void {
  assertWritableFile('--output', options.output);
  if (options.summaryJson !== undefined) assertWritableFile('--summary-json', options.summaryJson);
}
