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

/** Keeps the first record of each fingerprint and counts the rest (one merge, fed record by record). */
export class RecordMerger {
  private readonly byFingerprint = new Map<string, PageRecord>();
  private readonly counts = new Map<string, number>();
  private readonly perWorker = new Map<string, number>();
  private recordsRead = 0;

  /** @param record - one page record, in the order it was written */
  add(record: PageRecord): void {
    this.recordsRead++;
    this.perWorker.set(record.worker, (this.perWorker.get(record.worker) ?? 0) + 1);
    this.counts.set(record.fingerprint, (this.counts.get(record.fingerprint) ?? 0) + 1);
    if (!this.byFingerprint.has(record.fingerprint)) this.byFingerprint.set(record.fingerprint, record);
  }

  /** @returns what was merged so far */
  result(): MergedRecords {
    const duplicated = new Map([...this.counts].filter(([, n]) => n > 1));
    return { pages: [...this.byFingerprint.values()], recordsRead: this.recordsRead, perWorker: this.perWorker, duplicated };
  }
}

/**
 * Reads every worker's JSON Lines file and keeps each page (fingerprint) once. A torn last line (a worker killed in
 * the middle of a write) is skipped.
 */
export async function mergeRecords(files: string[]): Promise<MergedRecords> {
  const merger = new RecordMerger();
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
      merger.add(record);
    }
  }
  return merger.result();
}

/** Writes the merged pages as JSON Lines (one page per line). */
export function writeJsonLines(path: string, pages: PageRecord[]): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, pages.map((p) => `${JSON.stringify(p)}\n`).join(''));
}
