import { randomUUID } from 'node:crypto';
import { RedisQueueAdmin } from '../../src/admin/redis-queue-admin.js';
import type { RequestSchema } from '../../src/core/crawlee-types.js';
import type { RedisRequestQueueClient } from '../../src/storage/redis-request-queue-client.js';
import type { RedisConnection } from '../../src/core/connection.js';
import { queueIndexKey } from '../../src/core/keys.js';
import { RedisStorageClient, type RedisStorageClientOptions } from '../../src/storage/redis-storage-client.js';
import { closeConnection, type TestBackend } from './backends.js';

/** One test's private queue on a real Redis: random key prefix, a movable Redis clock, clients with their own
 * connections, and cleanup of every key it made. */
export interface QueueWorld {
  readonly keyPrefix: string;
  readonly name: string;
  /** Milliseconds added to Redis TIME by every client of this world. */
  readonly clock: { offset: number };
  /** A connection for direct inspection. */
  readonly redis: RedisConnection;
  /** A new client (own storage client and connection) with this lock owner.
   * @param clientKey - lock owner */
  client(clientKey: string, options?: Partial<RedisStorageClientOptions>): Promise<RedisRequestQueueClient>;
  /** A storage client on its own connection. */
  storageClient(options?: Partial<RedisStorageClientOptions>): RedisStorageClient;
  admin(): RedisQueueAdmin;
  /** Moves this world's Redis clock forward. @param ms - milliseconds */
  advance(ms: number): void;
  cleanup(): Promise<void>;
}

/**
 * @param backend - where Redis is
 * @param name - queue name
 * @param defaults - storage client options every client of this world gets (e.g. `{ shards: 12 }`, `handledRequests`;
 *   a test's own options win)
 */
export function createWorld(backend: TestBackend, name = 'queue', defaults: Partial<RedisStorageClientOptions> = {}): QueueWorld {
  const keyPrefix = `rqt-${randomUUID().slice(0, 12)}`;
  const clock = { offset: 0 };
  const connections: RedisConnection[] = [];
  const connect = () => {
    const redis = backend.connect();
    connections.push(redis);
    return redis;
  };
  const redis = connect();
  const storageClient = (options: Partial<RedisStorageClientOptions> = {}) =>
    // Liveness, the wait for a polite host and the idle back-off off unless a test asks for them: these tests move the
    // Redis clock to end locks by their lock time and open hosts, and expect each call's answer at that moment (a
    // heartbeat on the moved clock would keep locks; a call would wait for a host in real time, or answer from the
    // back-off). test/liveness/ and test/politeness/next-open.test.ts cover them.
    new RedisStorageClient({ redis: connect(), keyPrefix, clockOffsetMs: () => clock.offset, liveness: false, maxHostWaitSecs: 0, idleBackoff: false, ...defaults, ...options });
  return {
    keyPrefix,
    name,
    clock,
    redis,
    storageClient,
    async client(clientKey, options = {}) {
      const sc = storageClient(options);
      await sc.requestQueues().getOrCreate(name);
      return sc.requestQueue(name, { clientKey }) as RedisRequestQueueClient;
    },
    admin: () => new RedisQueueAdmin({ redis, keyPrefix, name }),
    advance(ms) {
      clock.offset += ms;
    },
    async cleanup() {
      await new RedisQueueAdmin({ redis, keyPrefix, name }).dropHashTag(); // worker stats keys too
      await redis.del(queueIndexKey(keyPrefix));
      await Promise.all(connections.map(closeConnection));
    },
  };
}

/** A request schema as Crawlee's RequestQueue sends it (uniqueKey = url).
 * @param n - request number
 * @param extra - more fields */
export function req(n: number | string, extra: Record<string, unknown> = {}): RequestSchema {
  const url = `https://example.com/${n}`;
  return { url, uniqueKey: url, method: 'GET', userData: {}, ...extra };
}

/** The urls' last path segments, for compact order assertions.
 * @param items - head items */
export function names(items: Array<{ url: string }>): string[] {
  return items.map((item) => item.url.slice('https://example.com/'.length));
}
