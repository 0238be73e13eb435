import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where the workers of a distributed run append their records: beside the output, one folder per incarnation of
 * the queue (`<output>.parts/<incarnation>/`). It outlives a killed coordinator, so a rerun with the same `--queue`
 * merges the pages of every earlier run into the output instead of writing only the pages it crawled itself.
 *
 * @param output - the absolute `--output` path
 * @param incarnation - the queue's incarnation id (see {@link SeededSite})
 */
export function recordsDirOf(output: string, incarnation: string): string {
  return join(`${output}.parts`, incarnation === '' ? 'unknown' : incarnation);
}

/** Creates the folder. @returns it */
export function openRecordsDir(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Every records file in the folder (earlier runs' included), in name order. */
export function recordsFilesIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .map((name) => join(dir, name));
}

/** Removes the folder, and `<output>.parts` when nothing else is left in it (the queue is gone: nothing to resume). */
export function removeRecordsDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  const parent = join(dir, '..');
  if (existsSync(parent) && readdirSync(parent).length === 0) rmSync(parent, { recursive: true, force: true });
}
