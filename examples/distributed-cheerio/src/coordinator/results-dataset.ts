import { RedisStorageClient } from 'crawlee-redis-queue';
import type { RedisClient } from '../redis/open-redis.js';
import type { PageRecord } from '../worker/page-record.js';
import { RecordMerger, type MergedRecords } from './merge-records.js';

/** Records read from Redis per round (one LRANGE each). */
const CHUNK = 1000;

/**
 * The Redis dataset of `--results redis`: every worker pushes its page records into the dataset named after the
 * queue (`{<keyPrefix>:ds:<queue>}:items`, see crawlee-redis-queue's Redis dataset), so the results of every worker
 * and machine are in one place, and `crawlee-redis export <queue>` streams them.
 */
export class ResultsDataset {
  private readonly storage: RedisStorageClient;

  /**
   * @param redis - the coordinator's connection
   * @param keyPrefix - `--key-prefix`
   * @param name - the queue name (= the dataset name)
   */
  constructor(
    redis: RedisClient,
    keyPrefix: string,
    readonly name: string,
  ) {
    this.storage = new RedisStorageClient({ redis, keyPrefix, datasets: 'redis', workerStats: false });
  }

  /** @returns the records in the dataset (0 when it does not exist) */
  async count(): Promise<number> {
    return (await this.storage.dataset(this.name).get())?.itemCount ?? 0;
  }

  /** Creates the dataset if needed (so `crawlee-redis export` finds it even before the first page). */
  async open(): Promise<void> {
    await this.storage.datasets().getOrCreate(this.name);
  }

  /** Reads every record, chunk by chunk, and keeps each page (fingerprint) once. @returns the merge */
  async merge(): Promise<MergedRecords> {
    const merger = new RecordMerger();
    const client = this.storage.dataset(this.name);
    const total = await this.count();
    for (let offset = 0; offset < total; offset += CHUNK) {
      const page = await client.listItems({ offset, limit: CHUNK });
      if (page.items.length === 0) break;
      for (const item of page.items) merger.add(item as unknown as PageRecord);
    }
    return merger.result();
  }

  /** Deletes the dataset (a finished per-run queue takes its results with it; the output file keeps them). */
  async delete(): Promise<void> {
    await this.storage.dataset(this.name).delete();
  }
}
