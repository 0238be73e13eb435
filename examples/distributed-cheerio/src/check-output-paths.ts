import { accessSync, closeSync, constants, lstatSync, mkdirSync, openSync, readlinkSync, rmdirSync, rmSync, type Stats } from 'node:fs';
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

/**
 * Creates the missing folders and the file, then removes exactly what it created. Another run may probe or use the
 * same folders at the same moment: a folder it created first is not ours (EEXIST), a folder it removed under us
 * (ENOENT) means "try again", and ours are removed only while empty (rmdir, never recursive), so a probe never
 * deletes what another run has written meanwhile.
 */
function probeNewFile(path: string, fail: (why: string) => never): void {
  for (let attempt = 0; ; attempt++) {
    const error = probeOnce(path);
    if (error === undefined) return;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && attempt < 5 && !underProc(path)) continue;
    fail(error.message);
  }
}

/** Node's recursive and per-folder mkdir both loop or lie under /proc; such a path is simply not writable. */
function underProc(path: string): boolean {
  return path === '/proc' || path.startsWith('/proc/');
}

function probeOnce(path: string): Error | undefined {
  // The missing folders, outermost first, created one by one: Node's recursive mkdirSync spins for ever on a path
  // the kernel refuses with ENOENT (e.g. under /proc).
  const missing: string[] = [];
  for (let folder = dirname(path); lstatOrUndefined(folder) === undefined; folder = dirname(folder)) missing.unshift(folder);
  const created: string[] = [];
  let error: Error | undefined;
  let file = false;
  try {
    for (const folder of missing) {
      try {
        mkdirSync(folder);
        created.push(folder);
      } catch (caught) {
        if ((caught as NodeJS.ErrnoException).code !== 'EEXIST') throw caught;
      }
    }
    closeSync(openSync(path, 'wx'));
    file = true;
  } catch (caught) {
    error = caught as Error;
  }
  if (file) rmSync(path, { force: true });
  for (const folder of created.reverse()) {
    try {
      rmdirSync(folder);
    } catch {
      break; // not empty: another run uses it now; it and its parents stay
    }
  }
  return error;
}

/** {@link assertWritableFile} for `--output` and `--summary-json`. @param options - the validated options */
export function assertOutputPathsWritable(options: Pick<RunOptions, 'output' | 'summaryJson'>): void {
  assertWritableFile('--output', options.output);
  if (options.summaryJson !== undefined) assertWritableFile('--summary-json', options.summaryJson);
}
