import { randomUUID } from 'node:crypto';
import type { DatasetContext } from './dataset-context.js';
import { toDatasetInfo } from './dataset-info.js';
import { datasetIndexKey, datasetKeys } from './dataset-keys.js';
import type { DatasetCollectionClient, DatasetInfo } from './dataset-types.js';
import { execMulti } from './multi-exec.js';

/** The Redis datasets under one key prefix: get-or-create by name, list (from the `<keyPrefix>:ds:index` set). */
export class RedisDatasetCollectionClient implements DatasetCollectionClient {
  /** @param ctx - connection and key prefix */
  constructor(private readonly ctx: DatasetContext) {}

  /** @returns every dataset of the index, oldest first */
  async list(): Promise<{ total: number; count: number; offset: number; limit: number; desc: boolean; items: DatasetInfo[] }> {
    const { redis } = this.ctx.connection;
    const ids = await this.ctx.connection.run(() => redis.smembers(datasetIndexKey(this.ctx.keyPrefix)));
    const items: DatasetInfo[] = [];
    for (const id of ids) {
      const keys = datasetKeys(this.ctx.keyPrefix, id);
      const [meta, count] = await this.ctx.connection.run(() => execMulti(redis.multi().hgetall(keys.meta).llen(keys.items)));
      const fields = (meta ?? {}) as Record<string, string>;
      if (Object.keys(fields).length > 0) items.push(toDatasetInfo(id, fields, Number(count)));
    }
    items.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    return { total: items.length, count: items.length, offset: 0, limit: items.length, desc: false, items };
  }

  /**
   * Opens the dataset `name`, creating it when missing (every process that opens the same name shares it); the id
   * of a named dataset is its name. Without a name a new dataset with a random id is created.
   *
   * @param name - the dataset name
   * @returns its info
   * @throws {@link InvalidOptionsError} for a name that is empty or has braces
   */
  async getOrCreate(name?: string): Promise<DatasetInfo> {
    const id = name ?? randomUUID();
    const keys = datasetKeys(this.ctx.keyPrefix, id);
    const { redis } = this.ctx.connection;
    const now = String(Date.now());
    const multi = redis.multi().hsetnx(keys.meta, 'id', id).hsetnx(keys.meta, 'createdAt', now).hsetnx(keys.meta, 'modifiedAt', now);
    if (name) multi.hsetnx(keys.meta, 'name', name);
    const replies = await this.ctx.connection.run(() => execMulti(multi.hgetall(keys.meta).llen(keys.items)));
    // The index is on its own slot in a Cluster, so it is written after the dataset's own keys.
    await this.ctx.connection.run(() => redis.sadd(datasetIndexKey(this.ctx.keyPrefix), id));
    const [meta, count] = replies.slice(-2);
    return toDatasetInfo(id, (meta ?? {}) as Record<string, string>, Number(count));
  }
}
