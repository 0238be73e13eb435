import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { RedisOptions } from 'ioredis';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { ConnectionHandle, type RedisConnectionOption } from '../core/connection.js';
import { assertKeyPart, assertKeyPrefix } from '../core/keys.js';
import { DatasetNotFoundError } from './errors/dataset-not-found-error.js';
import { RedisDatasetClient } from './redis-dataset-client.js';
import { integerOption } from '../options/option-ranges.js';
import { checkKnownOptions } from '../options/known-options.js';

/** Progress of {@link exportDataset}, reported after each chunk. */
export interface ExportProgress {
  /** Items read and exported so far (with `uniqueBy`, the duplicates skipped included). */
  written: number;
  /** Items in the dataset when the export started (items pushed later are not exported). */
  total: number;
}

/** Options of {@link exportDataset}. */
export interface ExportDatasetOptions {
  /** A `redis://` URL, or an ioredis `Redis` or `Cluster` (never closed by this function).
   * @defaultValue `process.env.REDIS_URL`, else `'redis://127.0.0.1:6379'` */
  redis?: RedisConnectionOption;
  /** Extra ioredis options for a connection created from a URL. */
  redisOptions?: RedisOptions;
  /** Key prefix the workers use. @defaultValue 'crawlee' */
  keyPrefix?: string;
  /** The dataset name (Crawlee's default dataset is `'default'`). */
  name: string;
  /** `'jsonl'`: one JSON object per line; `'csv'`: a header row, then one row per item (objects as JSON text). */
  format: 'jsonl' | 'csv';
  /** A file path (written to `<path>.partial`, renamed when complete, so a failed export leaves no half file), or a
   * writable stream (left open). @defaultValue `process.stdout` */
  output?: string | Writable;
  /** CSV columns. @defaultValue the keys of the first item, as Crawlee's `exportToCSV` does */
  columns?: string[];
  /** Items read from Redis per LRANGE round, 1 to 100,000. @defaultValue 1000 */
  chunkSize?: number;
  /** Keep only the first item of each value of this top-level field (e.g. `'url'`, or a `uniqueKey` the handler
   * pushed): a worker killed after its `pushData` but before its request was marked handled has the page crawled and
   * pushed again by another worker. Items without the field are all kept. Holds the values seen in memory.
   * @defaultValue undefined (every item) */
  uniqueBy?: string;
  /** Called after each chunk is written. */
  onProgress?: (progress: ExportProgress) => void;
}

function cell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint') return value.toString();
  // Numbers and booleans print as themselves; objects and arrays as JSON text.
  return JSON.stringify(value) ?? '';
}

async function write(stream: Writable, text: string): Promise<void> {
  if (text && !stream.write(text)) await once(stream, 'drain');
}

/**
 * Streams a Redis dataset (every worker's `pushData`) to a file or stream as JSON lines or CSV, chunk by chunk, so
 * a large dataset never sits in memory. This is what `crawlee-redis export <dataset>` runs.
 *
 * @param options - see {@link ExportDatasetOptions}
 * @returns how many items were written, how many `uniqueBy` skipped as duplicates, and how many had no `uniqueBy`
 * field (kept, each as its own; when that is every item the field name is likely wrong)
 * @throws {@link InvalidOptionsError} for a bad format, name, chunk size or URL (nothing is written)
 * @throws {@link DatasetNotFoundError} when the dataset does not exist (nothing is written)
 * @throws {@link DatasetItemUnreadableError} when an entry is not a JSON object (a file output is removed)
 */
export async function exportDataset(options: ExportDatasetOptions): Promise<{ items: number; duplicates: number; withoutField: number }> {
  checkKnownOptions<ExportDatasetOptions>('exportDataset options', options, {
    redis: true, redisOptions: true, keyPrefix: true, name: true, format: true, output: true, columns: true, chunkSize: true, uniqueBy: true, onProgress: true,
  });
  if (options.format !== 'jsonl' && options.format !== 'csv') {
    throw new InvalidOptionsError(`format must be 'jsonl' or 'csv' (got ${JSON.stringify(options.format)})`);
  }
  const chunkSize = integerOption('chunkSize', options.chunkSize);
  const { uniqueBy } = options;
  if (uniqueBy !== undefined && (typeof uniqueBy !== 'string' || uniqueBy.length === 0)) {
    throw new InvalidOptionsError(`uniqueBy must be a field name (got ${JSON.stringify(uniqueBy)})`);
  }
  const keyPrefix = options.keyPrefix ?? 'crawlee';
  assertKeyPrefix('keyPrefix', keyPrefix);
  assertKeyPart('dataset name', options.name);
  const connection = new ConnectionHandle(options.redis, options.redisOptions);
  try {
    const client = new RedisDatasetClient({ connection, keyPrefix }, options.name);
    const info = await client.get();
    if (!info) throw new DatasetNotFoundError(options.name, keyPrefix);
    const total = info.itemCount;
    const path = typeof options.output === 'string' ? options.output : undefined;
    const stream = path ? await openOutput(path) : ((options.output as Writable | undefined) ?? process.stdout);
    let written = 0;
    let duplicates = 0;
    let withoutField = 0;
    const seen = new Set<string>();
    const isFirst = (item: Record<string, unknown>): boolean => {
      if (uniqueBy === undefined) return true;
      if (item[uniqueBy] === undefined) {
        withoutField++;
        return true;
      }
      const key = JSON.stringify(item[uniqueBy]);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    };
    try {
      let columns = options.columns;
      while (written < total) {
        const page = await client.listItems({ offset: written, limit: Math.min(chunkSize, total - written) });
        if (page.items.length === 0) break; // deleted under us
        const items = page.items.filter(isFirst);
        duplicates += page.items.length - items.length;
        if (items.length === 0) {
          // every item of the chunk was a duplicate: nothing to write
        } else if (options.format === 'jsonl') {
          await write(stream, items.map((item) => `${JSON.stringify(item)}\n`).join(''));
        } else {
          const header = columns === undefined;
          columns ??= Object.keys(items[0]!);
          const rows = items.map((item) => columns!.map((column) => cell(item[column])));
          await write(stream, stringify(header ? [columns, ...rows] : rows));
        }
        written += page.items.length;
        options.onProgress?.({ written, total });
      }
      if (options.format === 'csv' && written === 0 && options.columns) await write(stream, stringify([options.columns]));
      if (path) {
        stream.end();
        await once(stream, 'finish');
        await rename(`${path}.partial`, path);
      }
    } catch (error) {
      if (path) {
        stream.destroy();
        await rm(`${path}.partial`, { force: true });
      }
      throw error;
    }
    return { items: written - duplicates, duplicates, withoutField };
  } finally {
    await connection.close();
  }
}

/**
 * Opens `<path>.partial` for writing, or says why it cannot be (a missing directory, no permission): a write stream
 * reports that as an 'error' event later, which would crash the process instead of failing the export.
 * @throws {@link InvalidOptionsError} naming the path and the reason; nothing was written
 */
async function openOutput(path: string): Promise<Writable> {
  const stream = createWriteStream(`${path}.partial`);
  try {
    await once(stream, 'open');
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new InvalidOptionsError(`output ${JSON.stringify(path)} cannot be written (${code ?? message}): choose a path in a directory you can write to`, { cause: error });
  }
  return stream;
}
