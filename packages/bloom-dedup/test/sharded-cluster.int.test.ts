// A Redis dedup store attached to a sharded queue (shards: 12) on a local 3-master Redis Cluster: split into one
// part per shard, part s in shard s's hash tag, so each shard's add script runs its part atomically.
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { startRedisCluster, type RedisClusterHandle } from '@crawlee-distributed/test-utils';
import type { RequestQueue } from 'crawlee';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEDUP_STATE,
  RedisBloomDedupStore,
  RedisSetDedupStore,
  StoreLayoutMismatchError,
  withDedup,
  type DedupQueueState,
  type DedupStore,
} from '../src/index.js';

// crawlee-redis-queue through its built dist only, as in redis-queue.int.test.ts (neither package depends on the other).
const distPath = fileURLToPath(new URL('../../redis-queue/dist/index.js', import.meta.url));
const built = existsSync(distPath);
if (!built) console.warn(`SKIPPED test/sharded-cluster.int.test.ts: crawlee-redis-queue is not built (${distPath} is missing)`);

type OpenQueue = (name: string, options: { redis: Cluster; keyPrefix: string; shards?: number }) => Promise<RequestQueue>;

const SHARDS = 12;
const PAGES = 200;
const stateOf = (queue: object) => (queue as Record<symbol, DedupQueueState>)[DEDUP_STATE]!;
/** The dedup key drops the query: two uniqueKeys, one dedup key, so only the filter can stop the second. */
const pathKey = (r: { url: string }) => r.url.split('?')[0]!;
/** Page i of 20 hosts (shardBy 'host': the pages spread over the shards by host). */
const page = (i: number, variant: string) => `https://h${i % 20}.example/p/${i}?v=${variant}`;

describe.skipIf(!built)(`a Redis dedup store on a sharded queue (shards: ${SHARDS}) on a 3-master cluster`, () => {
  let openRedisRequestQueue: OpenQueue;
  let cluster: RedisClusterHandle;
  let a: Cluster;
  let b: Cluster;
  beforeAll(async () => {
    openRedisRequestQueue = ((await import(/* @vite-ignore */ distPath)) as { openRedisRequestQueue: OpenQueue }).openRedisRequestQueue;
    cluster = await startRedisCluster({ masters: 3 });
    // Two workers: each its own connection, queue client and store instance.
    a = new Cluster(cluster.nodes);
    b = new Cluster(cluster.nodes);
  }, 120_000);
  afterAll(async () => {
    a?.disconnect();
    b?.disconnect();
    await cluster?.stop();
  });

  /** Every key of the cluster that contains `fragment`. */
  async function keysWith(fragment: string): Promise<string[]> {
    const out: string[] = [];
    for (const node of a.nodes('master')) out.push(...(await node.keys(`*${fragment}*`)));
    return out.sort();
  }

  const slot = async (key: string) => Number(await a.cluster('KEYSLOT', key));

  const kinds: Array<[string, (redis: Cluster, key: string) => DedupStore & { splitLayout?: { tags: string[] } }]> = [
    ['RedisBloomDedupStore', (redis, key) => new RedisBloomDedupStore({ redis, key, capacity: 12_000, errorRate: 1e-4 })],
    ['RedisSetDedupStore', (redis, key) => new RedisSetDedupStore({ redis, key })],
  ];

  for (const [kind, makeStore] of kinds) {
    it(`${kind}: split into ${SHARDS} parts in the shards' slots; two workers adding the same new pages at once: exactly one enqueues each`, async () => {
      const prefix = `sf${randomUUID().slice(0, 6)}`;
      const storeKey = `${prefix}:seen`;
      const [qa, qb] = await Promise.all([
        openRedisRequestQueue('crawl', { redis: a, keyPrefix: prefix, shards: SHARDS }),
        openRedisRequestQueue('crawl', { redis: b, keyPrefix: prefix, shards: SHARDS }),
      ]);
      const [sa, sb] = [makeStore(a, storeKey), makeStore(b, storeKey)];
      withDedup(qa, { store: sa, key: pathKey });
      withDedup(qb, { store: sb, key: pathKey });
      // Attached to the shards' add scripts, not filtering in front.
      expect([stateOf(qa).mode, stateOf(qb).mode]).toEqual(['atomic', 'atomic']);

      const pages = Array.from({ length: PAGES }, (_, i) => i);
      const [ra, rb] = await Promise.all([
        qa.addRequests(pages.map((i) => page(i, 'a'))),
        qb.addRequests(pages.map((i) => page(i, 'b'))),
      ]);
      // Each page: enqueued by exactly one of the two workers (different uniqueKeys, one dedup key).
      const enqueuedBy = pages.map((i) => [ra, rb].filter((r) => !r.processedRequests[i]!.wasAlreadyPresent).length);
      expect(enqueuedBy.every((n) => n === 1)).toBe(true);
      expect((await qa.getInfo())?.totalRequestCount).toBe(PAGES);

      // The split: 12 parts, part s in the queue's shard s (its meta exists under that tag), every part key in its slot.
      const layout = sa.splitLayout!;
      expect(layout.tags).toHaveLength(SHARDS);
      expect(new Set(await Promise.all(layout.tags.map(slot))).size).toBe(SHARDS);
      for (const tag of layout.tags) expect(await a.exists(`${tag}:meta`)).toBe(1);
      const partKeys = await keysWith(`:dedup:${storeKey}`);
      expect(partKeys.length).toBeGreaterThanOrEqual(SHARDS);
      for (const key of partKeys) {
        const tag = key.slice(0, key.indexOf('}') + 1);
        expect(layout.tags).toContain(tag);
        expect(await slot(key)).toBe(await slot(tag));
      }
      // Nothing at the unsplit keys (a Bloom opened unsplit would hold a meta and a block there).
      expect((await keysWith(storeKey)).filter((k) => !k.includes(':dedup:'))).toEqual([
        kind === 'RedisSetDedupStore' ? `{${storeKey}}:stats` : `{${storeKey}}:meta`,
      ]);

      // Counts are the sums over the parts.
      expect(await sa.stats()).toMatchObject({ itemsAdded: PAGES, filtered: PAGES, parts: SHARDS });
      if (kind === 'RedisBloomDedupStore') {
        const part0 = (sa as RedisBloomDedupStore).splitLayout!.parts[0]!;
        // Each part sized for its share of the capacity.
        expect(await a.hget(part0.meta, 'capacity')).toBe(String(12_000 / SHARDS));
      } else {
        const sizes = await Promise.all((sa as RedisSetDedupStore).splitLayout!.parts.map((p) => a.scard(p.key)));
        expect(sizes.reduce((x, y) => x + y, 0)).toBe(PAGES);
        expect(sizes.filter((n) => n > 0).length).toBeGreaterThan(SHARDS / 2);
      }

      // The store's own methods route keys to their parts, also in a process that only opens the store.
      const reader = makeStore(b, storeKey);
      const seen = pages.map((i) => pathKey({ url: page(i, '') }));
      expect(await reader.has(seen)).toEqual(seen.map(() => true));
      const fresh = pages.slice(0, 20).map((i) => `https://h${i % 20}.example/new/${i}`);
      expect(await reader.has(fresh)).toEqual(fresh.map(() => false));
      expect(await sb.add(fresh)).toEqual(fresh.map(() => true));
      expect(await reader.has(fresh)).toEqual(fresh.map(() => true));
      const later = await qa.addRequests(fresh.map((u) => `${u}?v=late`));
      expect(later.processedRequests.every((p) => p.wasAlreadyPresent)).toBe(true);
      if (reader.canForget) {
        expect(await reader.forget!(fresh.slice(0, 5))).toEqual([true, true, true, true, true]);
        const again = await qb.addRequests(fresh.slice(0, 5).map((u) => `${u}?v=again`));
        expect(again.processedRequests.map((p) => p.wasAlreadyPresent)).toEqual([false, false, false, false, false]);
      }
      await Promise.all([sa.close(), sb.close(), reader.close()]);
    }, 60_000);
  }

  it('refused, with nothing written: a set that holds members unsplit, a Bloom that holds keys unsplit, a split store attached with another shard count; an empty store opened unsplit is converted', async () => {
    const prefix = `sr${randomUUID().slice(0, 6)}`;
    const everything = async () => keysWith(prefix);

    // A set used unsplit (e.g. a dupefilter from an earlier crawl).
    await a.sadd(`${prefix}:old`, 'https://h1.example/p/1');
    const before = await everything();
    const q1 = await openRedisRequestQueue('one', { redis: a, keyPrefix: prefix, shards: SHARDS });
    const queueKeys = (await everything()).filter((k) => !before.includes(k));
    withDedup(q1, { store: new RedisSetDedupStore({ redis: a, key: `${prefix}:old` }), key: pathKey });
    const refused = await q1.addRequests(['https://h1.example/p/2']).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StoreLayoutMismatchError);
    expect(String((refused as Error).message)).toMatch(/unsplit and holds keys.*new key/s);
    expect(await everything()).toEqual([...before, ...queueKeys].sort());
    expect((await q1.getInfo())?.totalRequestCount).toBe(0);

    // A Bloom filter that already holds keys unsplit.
    const bloom = new RedisBloomDedupStore({ redis: a, key: `${prefix}:bloom`, capacity: 1200, errorRate: 1e-3 });
    await bloom.add(['https://h1.example/p/1']);
    const withBloom = await everything();
    const q2 = await openRedisRequestQueue('two', { redis: a, keyPrefix: prefix, shards: SHARDS });
    const q2Keys = (await everything()).filter((k) => !withBloom.includes(k));
    withDedup(q2, { store: bloom, key: pathKey });
    await expect(q2.addRequests(['https://h1.example/p/2'])).rejects.toBeInstanceOf(StoreLayoutMismatchError);
    expect(await everything()).toEqual([...withBloom, ...q2Keys].sort());

    // Split over one queue's 12 shards, then attached to a queue of 6: refused.
    const split = new RedisSetDedupStore({ redis: a, key: `${prefix}:split` });
    const q3 = await openRedisRequestQueue('three', { redis: a, keyPrefix: prefix, shards: SHARDS });
    withDedup(q3, { store: split, key: pathKey });
    await q3.addRequests(['https://h1.example/p/1']);
    expect(split.splitLayout?.tags).toHaveLength(SHARDS);
    const afterSplit = await everything();
    const q4 = await openRedisRequestQueue('four', { redis: a, keyPrefix: prefix, shards: 6 });
    const q4Keys = (await everything()).filter((k) => !afterSplit.includes(k));
    const again = new RedisSetDedupStore({ redis: a, key: `${prefix}:split` });
    withDedup(q4, { store: again, key: pathKey });
    const other = await q4.addRequests(['https://h1.example/p/2']).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(StoreLayoutMismatchError);
    expect(String((other as Error).message)).toMatch(/split into 12 parts.*asked to be split into 6 parts/s);
    expect(await everything()).toEqual([...afterSplit, ...q4Keys].sort());

    // Opened unsplit (and still empty) before it was attached: converted, its unused unsplit block freed.
    const opened = await RedisBloomDedupStore.open({ redis: a, key: `${prefix}:opened`, capacity: 1200, errorRate: 1e-3 });
    expect(await a.exists(opened.keys.blocks[0]!)).toBe(1);
    const q5 = await openRedisRequestQueue('five', { redis: a, keyPrefix: prefix, shards: SHARDS });
    withDedup(q5, { store: opened, key: pathKey });
    await q5.addRequests(['https://h1.example/p/1?a']);
    expect(opened.splitLayout?.tags).toHaveLength(SHARDS);
    expect(await a.exists(opened.keys.blocks[0]!)).toBe(0);
    expect(await opened.has(['https://h1.example/p/1'])).toEqual([true]);
    expect((await q5.addRequests(['https://h1.example/p/1?b'])).processedRequests[0]!.wasAlreadyPresent).toBe(true);
  }, 60_000);
});
