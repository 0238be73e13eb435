import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { RequestQueue } from 'crawlee';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEDUP_STATE,
  RedisBloomDedupStore,
  RedisSetDedupStore,
  withDedup,
  type DedupQueueState,
} from '../src/index.js';
import { deleteKeys, redisUrl } from './helpers.js';

// Which connections let the queue run the store inside its add script: what the README ("With crawlee-redis-queue")
// and docs/enqueue-filter-seam.md ("Who may attach") both say. crawlee-redis-queue through its built dist, as in
// redis-queue.int.test.ts.
const distPath = fileURLToPath(new URL('../../redis-queue/dist/index.js', import.meta.url));
const built = existsSync(distPath);
if (!built)
  console.warn(
    `SKIPPED test/attach-connections.int.test.ts: crawlee-redis-queue is not built (${distPath} is missing)`,
  );

type Queue = RequestQueue & { close(): Promise<void> };
type OpenQueue = (name: string, options: { redis: Redis | string; keyPrefix: string }) => Promise<Queue>;
const modeOf = (queue: object) => (queue as Record<symbol, DedupQueueState>)[DEDUP_STATE]!.mode;

describe.skipIf(!built)('withDedup on crawlee-redis-queue: which connections attach', () => {
  let openRedisRequestQueue: OpenQueue;
  let redis: Redis;
  const prefix = `att${randomUUID().slice(0, 8)}`;
  const opened: Array<{ close(): Promise<void> }> = [];
  const open = async (name: string, connection: Redis | string): Promise<Queue> => {
    const queue = await openRedisRequestQueue(name, { redis: connection, keyPrefix: prefix });
    opened.push(queue);
    return queue;
  };
  const bloom = (connection: Redis | string, name: string) => {
    const store = new RedisBloomDedupStore({
      redis: connection,
      key: `${prefix}:${name}`,
      capacity: 1000,
      errorRate: 1e-6,
    });
    opened.push(store);
    return store;
  };
  beforeAll(async () => {
    openRedisRequestQueue = (
      (await import(/* @vite-ignore */ distPath)) as { openRedisRequestQueue: OpenQueue }
    ).openRedisRequestQueue;
    redis = new Redis(redisUrl());
  });
  afterAll(async () => {
    for (const item of opened) await item.close().catch(() => undefined);
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });

  it('the same connection object attaches', async () => {
    const queue = await open('same', redis);
    withDedup(queue, { store: bloom(redis, 'same') });
    expect(modeOf(queue)).toBe('atomic');
  });

  it('two standalone connections to the same host, port and db attach (the queue from a URL, the store on its own connection)', async () => {
    const storeConnection = new Redis(redisUrl());
    try {
      const queue = await open('two', redisUrl());
      withDedup(queue, { store: bloom(storeConnection, 'two') });
      expect(modeOf(queue)).toBe('atomic');
      const set = await open('two-set', redisUrl());
      withDedup(set, { store: new RedisSetDedupStore({ redis: storeConnection, key: `${prefix}:two-set` }) });
      expect(modeOf(set)).toBe('atomic');
    } finally {
      storeConnection.disconnect();
    }
  });

  it('a store given a URL attaches once opened; created with `new` and not opened yet it has no connection, so it filters in front', async () => {
    const openedFirst = await open('url-opened', redisUrl());
    const store = await RedisBloomDedupStore.open({
      redis: redisUrl(),
      key: `${prefix}:url-opened`,
      capacity: 1000,
      errorRate: 1e-6,
    });
    opened.push(store);
    withDedup(openedFirst, { store });
    expect(modeOf(openedFirst)).toBe('atomic');

    const notOpened = await open('url-new', redisUrl());
    withDedup(notOpened, { store: bloom(redisUrl(), 'url-new') });
    expect(modeOf(notOpened)).toBe('in-front');
  });

  it('another db of the same server does not attach', async () => {
    const db1 = new Redis(`${redisUrl().replace(/\/\d*$/, '')}/1`);
    try {
      const queue = await open('db', redis);
      withDedup(queue, { store: bloom(db1, 'db') });
      expect(modeOf(queue)).toBe('in-front');
    } finally {
      db1.disconnect();
    }
  });
});
