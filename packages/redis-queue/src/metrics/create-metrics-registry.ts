import { Counter, Gauge, Registry } from 'prom-client';
import type { RedisOptions } from 'ioredis';
import { ConnectionHandle, type RedisConnectionOption } from '../core/connection.js';
import { assertKeyPrefix, queueKeys } from '../core/keys.js';
import { readFleetSnapshot, type QueueSnapshot } from './read-fleet-snapshot.js';
import { numberOption } from '../options/option-ranges.js';
import { checkKnownOptions } from '../options/known-options.js';

/** Options of {@link createMetricsRegistry}. */
export interface MetricsRegistryOptions {
  /** A `redis://` URL, or an ioredis `Redis` or `Cluster` (never closed by this package). A connection created from
   * a URL does not keep Node.js alive while idle. @defaultValue `process.env.REDIS_URL`, else `'redis://127.0.0.1:6379'` */
  redis?: RedisConnectionOption;
  /** Extra ioredis options for a connection created from a URL. */
  redisOptions?: RedisOptions;
  /** Key prefix the workers use. @defaultValue 'crawlee' */
  keyPrefix?: string;
  /** Queue names to export. @defaultValue every queue under the key prefix, re-read on each scrape */
  queues?: string[];
  /** Register the metrics in this registry instead of a new one (e.g. prom-client's global `register`). */
  registry?: Registry;
  /** Milliseconds one Redis read serves scrapes for (every metric of a scrape shares it), 0 to 3,600,000.
   * @defaultValue 1000 */
  cacheMs?: number;
}

/**
 * A prom-client `Registry` whose metrics are read from Redis on each scrape (prom-client's `collect`): per queue
 * `crawlee_queue_pending_requests`, `crawlee_queue_locked_requests`, `crawlee_queue_handled_requests_total`,
 * `crawlee_queue_failed_requests_total`, `crawlee_queue_retried_requests_total`, `crawlee_queue_dead_letters`,
 * `crawlee_queue_dedup_hits_total{source="queue"|"filter"}`, `crawlee_queue_bytes`, `crawlee_queue_workers{state}`;
 * per worker (label `worker`, `host`) `crawlee_worker_up`, `crawlee_worker_handled_requests_total`,
 * `crawlee_worker_failed_requests_total`, `crawlee_worker_locks`, `crawlee_worker_requests_per_second`.
 * Counters come from Redis, so a purge shows as a counter reset, which Prometheus' `rate()` handles. One scrape
 * costs O(queues × (keys + workers)) Redis commands.
 *
 * @param options - connection, key prefix, queues
 * @returns the registry; serve `await registry.metrics()` with `registry.contentType`
 * @throws {@link InvalidOptionsError} for a bad URL, key prefix or queue name
 *
 * @example
 * ```ts
 * const registry = createMetricsRegistry({ redis: 'redis://127.0.0.1:6379', queues: ['my-crawl'] });
 * app.get('/metrics', async (_req, res) => res.type(registry.contentType).send(await registry.metrics()));
 * ```
 */
export function createMetricsRegistry(options: MetricsRegistryOptions = {}): Registry {
  checkKnownOptions<MetricsRegistryOptions>('createMetricsRegistry options', options, { redis: true, redisOptions: true, keyPrefix: true, queues: true, registry: true, cacheMs: true });
  const keyPrefix = options.keyPrefix ?? 'crawlee';
  assertKeyPrefix('keyPrefix', keyPrefix);
  for (const name of options.queues ?? []) queueKeys(keyPrefix, name);
  const cacheMs = numberOption('cacheMs', options.cacheMs);
  const connection = new ConnectionHandle(options.redis, options.redisOptions);
  const registry = options.registry ?? new Registry();
  let cached: { at: number; value: Promise<QueueSnapshot[]> } | undefined;
  const snapshot = (): Promise<QueueSnapshot[]> => {
    if (!cached || performance.now() - cached.at > cacheMs) {
      const value = connection.run(() => readFleetSnapshot(connection.redis, keyPrefix, options.queues));
      // A failed read must not be served to the next scrape.
      value.catch(() => (cached = undefined));
      cached = { at: performance.now(), value };
    }
    return cached.value;
  };
  const queueGauge = (name: string, help: string, value: (q: QueueSnapshot) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['queue'],
      registers: [registry],
      async collect() {
        this.reset();
        for (const q of await snapshot()) this.set({ queue: q.name }, value(q));
      },
    });
  const queueCounter = (name: string, help: string, value: (q: QueueSnapshot) => number) =>
    new Counter({
      name,
      help,
      labelNames: ['queue'],
      registers: [registry],
      async collect() {
        this.reset();
        for (const q of await snapshot()) this.inc({ queue: q.name }, value(q));
      },
    });
  queueGauge('crawlee_queue_pending_requests', 'Unhandled requests in the queue, locked ones included.', (q) => q.stats.pending);
  queueGauge('crawlee_queue_locked_requests', 'Requests under an unexpired lock.', (q) => q.stats.locked);
  queueCounter('crawlee_queue_handled_requests_total', 'Requests marked handled (the queue counter).', (q) => q.stats.handled);
  queueCounter('crawlee_queue_failed_requests_total', 'Requests that failed for good (worker stats).', (q) => q.crawl.failed);
  queueCounter('crawlee_queue_retried_requests_total', 'Requests given back for a retry (worker stats).', (q) => q.crawl.retried);
  queueGauge('crawlee_queue_dead_letters', 'Entries in the dead letters.', (q) => q.stats.deadLetters);
  queueGauge('crawlee_queue_bytes', 'Redis memory of the queue keys (MEMORY USAGE, sampled).', (q) => q.bytes);
  new Counter({
    name: 'crawlee_queue_dedup_hits_total',
    help:
      'Duplicates filtered (requests offered that the queue did not take as new), by who answered: source="filter" the ' +
      'dedup store, source="queue" the rest (the queue, Crawlee\'s request cache); the sum is what `stats` shows.',
    labelNames: ['queue', 'source'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const q of await snapshot()) {
        const byStore = Math.min(q.crawl.dedupFiltered ?? 0, q.crawl.alreadyPresent);
        this.inc({ queue: q.name, source: 'queue' }, q.crawl.alreadyPresent - byStore);
        if (q.crawl.dedupFiltered !== undefined) this.inc({ queue: q.name, source: 'filter' }, byStore);
      }
    },
  });
  new Gauge({
    name: 'crawlee_queue_workers',
    help: 'Workers by state (alive, stopped, dead) as their published stats say.',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const q of await snapshot()) {
        for (const state of ['alive', 'stopped', 'dead'] as const) this.set({ queue: q.name, state }, q.workers.filter((w) => w.state === state).length);
      }
    },
  });
  const workerMetric = <T extends Gauge | Counter>(kind: 'gauge' | 'counter', name: string, help: string, value: (w: QueueSnapshot['workers'][number]) => number): T => {
    const config = {
      name,
      help,
      labelNames: ['queue', 'worker', 'host'],
      registers: [registry],
      async collect(this: Gauge | Counter) {
        this.reset();
        for (const q of await snapshot()) {
          for (const w of q.workers) {
            if (w.state === 'unreadable') continue;
            const labels = { queue: q.name, worker: w.id, host: w.host };
            if (this instanceof Counter) this.inc(labels, value(w));
            else this.set(labels, value(w));
          }
        }
      },
    };
    return (kind === 'counter' ? new Counter(config) : new Gauge(config)) as T;
  };
  workerMetric('gauge', 'crawlee_worker_up', '1 while the worker publishes its stats, 0 once stopped or dead.', (w) => (w.state === 'alive' ? 1 : 0));
  workerMetric('counter', 'crawlee_worker_handled_requests_total', 'Requests the worker handled successfully.', (w) => w.handled);
  workerMetric('counter', 'crawlee_worker_failed_requests_total', 'Requests that failed for good in the worker.', (w) => w.failed);
  workerMetric('gauge', 'crawlee_worker_locks', 'Locks the worker held at its last publish.', (w) => w.locks);
  workerMetric('counter', 'crawlee_worker_liveness_lapses_total', 'Times the worker\'s liveness heartbeat lapsed (event loop blocked or Redis out of reach past the window): its locks may have been refetched by others.', (w) => w.lapses);
  workerMetric('gauge', 'crawlee_worker_requests_per_second', 'Requests the worker finished per second over its last interval.', (w) => w.rate);
  return registry;
}
