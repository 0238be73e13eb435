import { createReadStream, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import type { PageRecord } from '../worker/page-record.js';

/** What merging the workers' record files found. */
export interface MergedRecords {
  /** First record of each fingerprint, in file order. */
  pages: PageRecord[];
  /** Records read, duplicates included. */
  recordsRead: number;
  /** Records per worker name. */
  perWorker: Map<string, number>;
  /** Fingerprints recorded more than once (fetched twice), with how many records each. */
  duplicated: Map<string, number>;
}

/**
 * Reads every worker's JSON Lines file and keeps each page (fingerprint) once. A torn last line (a worker killed in
 * the middle of a write) is skipped.
 */
export async function mergeRecords(files: string[]): Promise<MergedRecords> {
  const byFingerprint = new Map<string, PageRecord>();
  const counts = new Map<string, number>();
  const perWorker = new Map<string, number>();
  let recordsRead = 0;
  for (const file of files) {
    if (!existsSync(file)) continue;
    const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
    for await (const line of lines) {
      if (line.trim() === '') continue;
      let record: PageRecord;
      try {
        record = JSON.parse(line) as PageRecord;
      } catch {
        continue;
      }
      recordsRead++;
      perWorker.set(record.worker, (perWorker.get(record.worker) ?? 0) + 1);
      counts.set(record.fingerprint, (counts.get(record.fingerprint) ?? 0) + 1);
      if (!byFingerprint.has(record.fingerprint)) byFingerprint.set(record.fingerprint, record);
    }
  }
  const duplicated = new Map([...counts].filter(([, n]) => n > 1));
  return { pages: [...byFingerprint.values()], recordsRead, perWorker, duplicated };
}

/** Writes the merged pages as JSON Lines (one page per line). */
export function writeJsonLines(path: string, pages: PageRecord[]): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, pages.map((p) => `${JSON.stringify(p)}\n`).join(''));
}
