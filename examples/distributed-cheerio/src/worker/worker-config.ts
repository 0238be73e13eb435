import type { DedupMode, EnqueueStrategyName, ResultsMode } from '../options.js';
import type { FleetPoliteness } from './politeness.js';

/** Everything a worker process needs, passed from the coordinator as JSON in an environment variable (not argv:
 * `ps` shows every user the arguments, while the environment is readable only by the same user). */
export interface WorkerConfig {
  /** Name in records and logs: `worker-1`, `worker-2`, ... (a replacement gets the next number). */
  worker: string;
  /** One Redis URL, or a Cluster's seed nodes joined by commas. */
  redisUrl: string;
  /** True when `redisUrl` names a Redis Cluster (the coordinator asked the server). */
  redisCluster: boolean;
  /** The queue's shard count (crawlee-redis-queue's `shards`), the same in every worker. */
  shards: number;
  keyPrefix: string;
  queueName: string;
  dedup: DedupMode;
  /** Redis key (or key base) of the dedup store. */
  dedupKey: string;
  /** Redis hash with the fleet's counters. */
  countersKey: string;
  /** JSON Lines file this worker appends one record per page to (survives a SIGKILL); unused with `results: 'redis'`. */
  recordsFile: string;
  /** `redis`: push each record to the Redis dataset {@link WorkerConfig.queueName} instead of `recordsFile`. */
  results: ResultsMode;
  concurrency: number;
  lockSecs: number;
  maxRequests?: number;
  verbose: boolean;
  /** Which links the worker follows. */
  enqueueStrategy: EnqueueStrategyName;
  /** The fleet's politeness, the same in every worker (the queue enforces it in Lua; see politeness.ts); unset for
   * a queue created without politeness by an older run. */
  politeness?: FleetPoliteness;
  /** Origin of the site the coordinator serves (`http://127.0.0.1:<port>/`); unset for `--start-url` and `--join`. */
  servedOrigin?: string;
  /** True when this worker's own coordinator serves `servedOrigin`; false for a `--join` run, whose seeding run
   * serves it. */
  servedByCoordinator?: boolean;
}

/** What a worker tells its coordinator over IPC when it ends: finished the crawl, or stopped early (asked to, or
 * because the coordinator vanished), with the locks it handed back. */
export interface WorkerMessage {
  type: 'finished' | 'stopped';
  worker: string;
  reason: 'finished' | 'requested' | 'coordinator-gone' | 'site-gone';
  released: number;
  stats: { handled: number; failed: number };
}

/** The environment variable that carries a worker's configuration. */
export const WORKER_CONFIG_ENV = 'DISTRIBUTED_CHEERIO_WORKER';

/** Bloom sizing shared by the Redis and the in-memory filter (1e5 keys at 1e-6: about 360 KiB, 20 bits per key). */
export const BLOOM_CAPACITY = 100_000;
export const BLOOM_ERROR_RATE = 1e-6;

/** Keys of one run besides the queue's, all under the queue's root hash tag, so a Redis Cluster keeps them on one slot
 * (a sharded queue's requests live under its shards' tags, on every master). */
export function runKeys(keyPrefix: string, queueName: string): { dedupKey: string; countersKey: string; hashTag: string } {
  const hashTag = `{${keyPrefix}:rq:${queueName}}`;
  return { hashTag, dedupKey: `${hashTag}:dupefilter`, countersKey: `${hashTag}:example-counters` };
}
