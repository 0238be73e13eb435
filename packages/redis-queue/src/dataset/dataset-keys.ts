import { assertKeyPart, assertKeyPrefix } from '../core/keys.js';

/** The Redis keys of one dataset. Both share the hash tag `{<keyPrefix>:ds:<name>}`, so a push (items plus
 * metadata, in one MULTI) stays on one Cluster slot, apart from every queue's slot. */
export interface DatasetKeys {
  /** The hash tag, braces included: `{crawlee:ds:default}`. */
  readonly tag: string;
  /** LIST: the items as JSON, in push order (the scrapy-redis `RedisPipeline` `<spider>:items` shape). */
  readonly items: string;
  /** HASH: id, name, createdAt, modifiedAt (epoch ms). */
  readonly meta: string;
}

/**
 * The keys of the dataset `datasetId` under `keyPrefix`.
 *
 * @param keyPrefix - e.g. `'crawlee'`
 * @param datasetId - the dataset id (for a named dataset, its name)
 * @returns the key set
 * @throws {@link InvalidOptionsError} for an empty prefix or id, one with braces, or an ambiguous prefix
 *   (`assertKeyPrefix`: the same rule as queues, so no dataset shares keys with another dataset or a queue)
 */
export function datasetKeys(keyPrefix: string, datasetId: string): DatasetKeys {
  assertKeyPrefix('keyPrefix', keyPrefix);
  assertKeyPart('dataset name', datasetId);
  const tag = `{${keyPrefix}:ds:${datasetId}}`;
  return { tag, items: `${tag}:items`, meta: `${tag}:meta` };
}

/** SET of the ids of every dataset under `keyPrefix` (for `datasets().list()`).
 * @param keyPrefix - e.g. `'crawlee'` */
export function datasetIndexKey(keyPrefix: string): string {
  return `${keyPrefix}:ds:index`;
}
