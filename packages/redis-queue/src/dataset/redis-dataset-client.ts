import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { UnsupportedOperationError } from '../errors/unsupported-operation-error.js';
import type { DatasetContext } from './dataset-context.js';
import { toDatasetInfo } from './dataset-info.js';
import { datasetIndexKey, datasetKeys, type DatasetKeys } from './dataset-keys.js';
import type { DatasetClient, DatasetInfo, DatasetListOptions } from './dataset-types.js';
import { DatasetItemUnreadableError } from './errors/dataset-item-unreadable-error.js';
import { DatasetNotFoundError } from './errors/dataset-not-found-error.js';
import { execMulti } from './multi-exec.js';
import { normalizeItems } from './normalize-items.js';
import { paginatedList, type Page } from './paginated-list.js';

type Item = Record<string, unknown>;

/** Items per LRANGE (and per RPUSH argument list): bounds one reply and one command. */
const CHUNK = 1000;

function intOption(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || (value as number) < 0) {
    throw new InvalidOptionsError(`listItems ${name} must be a non-negative integer (got ${JSON.stringify(value) ?? typeof value})`);
  }
  return value as number;
}

/**
 * A Crawlee `DatasetClient` on Redis: one list per dataset (`{<keyPrefix>:ds:<name>}:items`, one compact JSON
 * object per entry, the scrapy-redis `RedisPipeline` `<spider>:items` shape) plus a small meta hash, so `pushData`
 * from every worker of a fleet lands in one place and `getData`, `forEach` and `exportToJSON`/`exportToCSV` read
 * them all. Pushes are RPUSH in one MULTI, so concurrent pushes never lose or double an item, and the item count is
 * the list length. Get one through `RedisStorageClient({ datasets: 'redis' })`.
 */
export class RedisDatasetClient implements DatasetClient {
  private readonly keys: DatasetKeys;

  /**
   * @param ctx - connection and key prefix
   * @param id - the dataset id (for a named dataset, its name)
   * @throws {@link InvalidOptionsError} for an id that is empty or has braces
   */
  constructor(
    private readonly ctx: DatasetContext,
    private readonly id: string,
  ) {
    this.keys = datasetKeys(ctx.keyPrefix, id);
  }

  /** @returns the dataset's info (itemCount is the list length), or undefined when it does not exist */
  async get(): Promise<DatasetInfo | undefined> {
    const [meta, count] = await this.ctx.connection.run(() =>
      execMulti(this.ctx.connection.redis.multi().hgetall(this.keys.meta).llen(this.keys.items)),
    );
    const fields = (meta ?? {}) as Record<string, string>;
    if (Object.keys(fields).length === 0) return undefined;
    return toDatasetInfo(this.id, fields, Number(count));
  }

  /** Renaming would move the keys to another hash tag (another Cluster slot) under running workers.
   * @throws {@link UnsupportedOperationError} always when a new name is given */
  async update(newFields: { name?: string } = {}): Promise<Partial<DatasetInfo>> {
    if (newFields.name !== undefined && newFields.name !== this.id) {
      throw new UnsupportedOperationError(`a Redis dataset cannot be renamed (asked to rename "${this.id}"); export it and push into a new one`);
    }
    const info = await this.get();
    if (!info) throw new DatasetNotFoundError(this.id, this.ctx.keyPrefix);
    return info;
  }

  /** Deletes the items, the metadata and the index entry. */
  async delete(): Promise<void> {
    const { redis } = this.ctx.connection;
    await this.ctx.connection.run(() => redis.del(this.keys.items, this.keys.meta));
    await this.ctx.connection.run(() => redis.srem(datasetIndexKey(this.ctx.keyPrefix), this.id));
  }

  /** Not implemented (Crawlee's MemoryStorage has none either); use `exportDataset` or `Dataset.exportToJSON`.
   * @throws {@link UnsupportedOperationError} always */
  downloadItems(): Promise<Buffer> {
    return Promise.reject(new UnsupportedOperationError('downloadItems is not implemented for Redis datasets; use exportDataset() or Dataset.exportToJSON()'));
  }

  /**
   * Items from `offset`, at most `limit`, oldest first (or newest first with `desc`), with MemoryStorage's
   * semantics: awaiting gives one page with `total`; iterating yields every item of the range.
   *
   * @param options - `offset` (default 0), `limit` (default all), `desc` (default false)
   * @throws {@link DatasetNotFoundError} when the dataset does not exist
   * @throws {@link DatasetItemUnreadableError} when an entry is not a JSON object
   */
  listItems(options: DatasetListOptions = {}): AsyncIterable<Item> & Promise<Page<Item>> {
    const offset = intOption('offset', options.offset);
    const limit = intOption('limit', options.limit);
    const desc = options.desc === true;
    return paginatedList((pageOffset, pageLimit) => this.page(pageOffset, pageLimit, desc), { offset, limit });
  }

  /** Like {@link RedisDatasetClient.listItems}, yielding `[index, item]` pairs (index in push order). */
  listEntries(options: DatasetListOptions = {}): AsyncIterable<[number, Item]> & Promise<Page<[number, Item]>> {
    const offset = intOption('offset', options.offset);
    const limit = intOption('limit', options.limit);
    const desc = options.desc === true;
    return paginatedList(async (pageOffset, pageLimit) => {
      const page = await this.page(pageOffset, pageLimit, desc);
      const at = (n: number) => (desc ? page.total - 1 - pageOffset - n : pageOffset + n);
      return { ...page, items: page.items.map((item, n) => [at(n), item] as [number, Item]) };
    }, { offset, limit });
  }

  private async page(offset: number, limit: number, desc: boolean): Promise<Page<Item>> {
    const { redis } = this.ctx.connection;
    const [exists, total] = (await this.ctx.connection.run(() =>
      execMulti(redis.multi().exists(this.keys.meta).llen(this.keys.items)),
    )).map(Number) as [number, number];
    if (!exists && !total) throw new DatasetNotFoundError(this.id, this.ctx.keyPrefix);
    // Indexes in push order; the list only grows at the tail, so they stay valid between LRANGE calls.
    const start = desc ? Math.max(total - offset - limit, 0) : offset;
    const end = Math.min(desc ? total - offset : offset + limit, total);
    const items: Item[] = [];
    for (let from = start; from < end; from += CHUNK) {
      const to = Math.min(from + CHUNK, end) - 1;
      const raws = await this.ctx.connection.run(() => redis.lrange(this.keys.items, from, to));
      raws.forEach((raw, n) => items.push(this.decode(raw, from + n)));
    }
    return { total, count: items.length, offset, limit, desc, items: desc ? items.reverse() : items };
  }

  private decode(raw: string, index: number): Item {
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new DatasetItemUnreadableError(this.keys.items, index, (error as Error).message);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new DatasetItemUnreadableError(this.keys.items, index, `it is ${Array.isArray(value) ? 'an array' : String(value)}`);
    }
    return value as Item;
  }

  /**
   * Appends items at the tail in one MULTI (all or nothing; concurrent pushes interleave whole calls).
   *
   * @param items - an object, a JSON string, or an array of either (what `Dataset.pushData` sends)
   * @throws {@link InvalidDatasetItemError} when an item is not a JSON object (nothing of the call is written)
   */
  async pushItems(items: Item | Item[] | string | string[]): Promise<void> {
    const texts = normalizeItems(items);
    if (texts.length === 0) return;
    const now = String(Date.now());
    const multi = this.ctx.connection.redis.multi();
    for (let n = 0; n < texts.length; n += CHUNK) multi.rpush(this.keys.items, ...texts.slice(n, n + CHUNK));
    // A push after someone deleted the dataset brings its metadata back rather than leaving items without it.
    multi.hsetnx(this.keys.meta, 'id', this.id).hsetnx(this.keys.meta, 'createdAt', now).hset(this.keys.meta, 'modifiedAt', now);
    await this.ctx.connection.run(() => execMulti(multi));
  }
}
