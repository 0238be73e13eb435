import { RequestQueue, type Configuration } from 'crawlee';
import {
  MemoryBloomDedupStore,
  RedisBloomDedupStore,
  RedisSetDedupStore,
  withDedup,
  type DedupStore,
} from 'crawlee-bloom-dedup';
import { openRedisRequestQueue, type RedisRequestQueue } from 'crawlee-redis-queue';
import { withScrapyFingerprint } from 'crawlee-scrapy-fingerprint';
import type { Redis } from 'ioredis';
import type { DedupMode } from '../options.js';
import { MemorySetDedupStore } from './memory-set-dedup-store.js';
import { BLOOM_CAPACITY, BLOOM_ERROR_RATE } from './worker-config.js';

/**
 * A request queue composed the way the README shows: fingerprint sets uniqueKey, dedup filters, the queue stores.
 * `Q` is the queue's type: the typed `RedisRequestQueue` (its `client` and `releaseLocks()` need no cast) for the
 * shared queue, Crawlee's `RequestQueue` for the in-process fallback.
 */
export interface ComposedQueue<Q extends RequestQueue = RequestQueue> {
  queue: Q;
  store?: DedupStore;
}

/**
 * Opens the shared Redis request queue `queueName`, with Scrapy fingerprints and the chosen dedup store on the same
 * Redis (so the Bloom check and the enqueue run in one script, see docs/enqueue-filter-seam.md).
 */
export async function openSharedQueue(options: {
  redis: Redis;
  keyPrefix: string;
  queueName: string;
  dedup: DedupMode;
  dedupKey: string;
  lockSecs: number;
  config?: Configuration;
}): Promise<ComposedQueue<RedisRequestQueue>> {
  const { redis, keyPrefix, queueName, dedup, dedupKey, lockSecs, config } = options;
  const queue = await openRedisRequestQueue(queueName, { redis, keyPrefix, lockSecs, ...(config ? { config } : {}) });
  withScrapyFingerprint(queue);
  if (dedup === 'none') return { queue };
  const store: DedupStore =
    dedup === 'bloom'
      ? new RedisBloomDedupStore({ redis, key: dedupKey, capacity: BLOOM_CAPACITY, errorRate: BLOOM_ERROR_RATE, recipe: 'scrapy' })
      : new RedisSetDedupStore({ redis, key: dedupKey });
  withDedup(queue, { store });
  return { queue, store };
}

/** The same composition on Crawlee's in-process MemoryStorage (the fallback when there is no Redis at all). */
export async function openMemoryQueue(options: {
  config: Configuration;
  queueName: string;
  dedup: DedupMode;
}): Promise<ComposedQueue> {
  const queue = await RequestQueue.open(options.queueName, { config: options.config });
  withScrapyFingerprint(queue);
  if (options.dedup === 'none') return { queue };
  const store: DedupStore =
    options.dedup === 'bloom'
      ? new MemoryBloomDedupStore({ capacity: BLOOM_CAPACITY, errorRate: BLOOM_ERROR_RATE })
      : new MemorySetDedupStore();
  withDedup(queue, { store });
  return { queue, store };
}
