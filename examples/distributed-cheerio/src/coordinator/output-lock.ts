import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OutputInUseError } from '../errors/output-in-use-error.js';

/** Where the lock files live: outside the output folder, so taking a lock creates nothing next to the user's files. */
function lockDir(): string {
  return join(tmpdir(), 'distributed-cheerio-output-locks');
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A lock on the output files of one run; {@link OutputLock.release} removes it. */
export interface OutputLock {
  release(): void;
}

/**
 * Takes an exclusive, per-machine lock on each path (a file named after its SHA-1 with this process's pid, created
 * with `O_EXCL`). A lock whose process is gone (a SIGKILLed run) is taken over.
 *
 * @param paths - `[flag, absolute path]` of every file the run writes at its end
 * @throws {@link OutputInUseError} when a live process holds one of them (nothing is kept locked then)
 */
export function lockOutputs(paths: Array<[flag: string, path: string]>): OutputLock {
  mkdirSync(lockDir(), { recursive: true });
  const taken: string[] = [];
  const release = () => {
    for (const file of taken.splice(0)) rmSync(file, { force: true });
  };
  try {
    for (const [flag, path] of paths) {
      const file = join(lockDir(), `${createHash('sha1').update(path).digest('hex')}.lock`);
      for (let attempt = 0; ; attempt++) {
        try {
          writeFileSync(file, `${process.pid}\n${path}\n`, { flag: 'wx' });
          taken.push(file);
          break;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 2) throw error;
          const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
          if (Number.isInteger(pid) && pid > 0 && alive(pid)) throw new OutputInUseError(flag, path, pid);
          rmSync(file, { force: true }); // stale: its run died without releasing it
        }
      }
    }
  } catch (error) {
    release();
    throw error;
  }
  return { release };
}
