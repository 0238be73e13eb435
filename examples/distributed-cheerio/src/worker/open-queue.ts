import { RequestQueue, type Configuration } from 'crawlee';
import {
  MemoryBloomDedupStore,
  RedisBloomDedupStore,
  RedisSetDedupStore,
  withDedup,
  type DedupStore,
} from 'crawlee-bloom-dedup';
import type { RedisRequestQueue, RedisStorageClient } from 'crawlee-redis-queue';
import { withScrapyFingerprint } from 'crawlee-scrapy-fingerprint';
import { openSharedQueue as openWorkerQueue } from '../worker.js';
import type { RedisClient } from '../redis/open-redis.js';
import { reconnectTimeoutSecs } from '../redis/redis-loss-watch.js';
import type { DedupMode } from '../options.js';
import { MemorySetDedupStore } from './memory-set-dedup-store.js';
import type { FleetPoliteness } from './politeness.js';
import { BLOOM_CAPACITY, BLOOM_ERROR_RATE } from './worker-config.js';

/**
 * A request queue composed the way the README shows: fingerprint sets uniqueKey, dedup filters, the queue stores.
 * `Q` is the queue's type: the typed `RedisRequestQueue` (its `client` and `releaseLocks()` need no cast) for the
 * shared queue, Crawlee's `RequestQueue` for the in-process fallback.
 */
export interface ComposedQueue<Q extends RequestQueue = RequestQueue> {
  queue: Q;
  store?: DedupStore;
  /** The Redis queue's storage client: `close()` publishes the worker's last stats (state `stopped`, final
   * counters) before the process exits; the connection passed in stays open. Unset on MemoryStorage. */
  storageClient?: RedisStorageClient;
}

/**
 * Opens the shared Redis request queue `queueName` the way src/worker.ts does (Scrapy fingerprints, the dedup store
 * on the same Redis, so the Bloom check and the enqueue run in one script), with the run's flags: the dedup mode,
 * shards, politeness, lock time, worker stats every 2 s and the run's reconnect budget.
 */
export async function openSharedQueue(options: {
  redis: RedisClient;
  keyPrefix: string;
  queueName: string;
  dedup: DedupMode;
  dedupKey: string;
  lockSecs: number;
  /** Fleet politeness (every process of a run passes the same); unset: none (a queue created without it). */
  politeness?: FleetPoliteness;
  /** crawlee-redis-queue's `shards` (every process of a run passes the same; the queue refuses another count). */
  shards?: number;
  config?: Configuration;
}): Promise<ComposedQueue<RedisRequestQueue>> {
  const { redis, keyPrefix, queueName, dedup, dedupKey, lockSecs, politeness, config, shards = 1 } = options;
  const store: DedupStore | null =
    dedup === 'none'
      ? null
      : dedup === 'bloom'
        ? new RedisBloomDedupStore({ redis, key: dedupKey, capacity: BLOOM_CAPACITY, errorRate: BLOOM_ERROR_RATE, recipe: 'scrapy' })
        : new RedisSetDedupStore({ redis, key: dedupKey });
  const opened = await openWorkerQueue({
    redis,
    queueName,
    lockSecs,
    dedup: store,
    ...(config ? { config } : {}),
    storage: {
      keyPrefix,
      // Worker stats every 2 s (default 15): `crawlee-redis workers`, `watch` and the dashboard follow a short demo
      // crawl closely; one small script call per interval per worker.
      workerStats: { intervalSecs: 2 },
      // S > 1: S sub-queues on their own hash tags, spread over a Cluster's masters. The shard of a request is a
      // function of its uniqueKey, here its Scrapy fingerprint, so the requests spread evenly whatever the hosts.
      shards,
      // The run's one reconnect budget: the queue gives up when the process's own watch does (redis-loss-watch.ts).
      reconnectTimeoutSecs: reconnectTimeoutSecs(),
      // Politeness is a setting of the storage client (openRedisRequestQueue's own `politeness` applies only to a
      // client it creates itself).
      ...(politeness !== undefined ? { politeness } : {}),
    },
  });
  return { queue: opened.queue, storageClient: opened.storageClient, ...(opened.store ? { store: opened.store } : {}) };
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
