import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ENQUEUE_FILTER_SINK,
  type EnqueueFilterPlan,
  type EnqueueFilterSink,
  type EnqueueFilterSource,
} from '../../src/internal.js';
import { EnqueueFilterIncompatibleError } from '../../src/errors/enqueue-filter-incompatible-error.js';
import type { RedisConnection } from '../../src/core/connection.js';
import { queueKeys } from '../../src/core/keys.js';
import { createBackend, type BackendKind, type TestBackend } from '../helpers/backends.js';
import { createWorld, names, req, type QueueWorld } from '../helpers/world.js';

/** Bit offsets of a key in a 2^20-bit filter: 6 offsets from its sha256 (a hand-built Bloom plan). */
function offsetsOf(key: string): string[] {
  const digest = createHash('sha256').update(key).digest();
  return Array.from({ length: 6 }, (_, i) => String(digest.readUInt32BE(i * 4) % 2 ** 20));
}

/** A hand-built dedup store offering the seam's source side: a Bloom bitmap, an exact set and a counter hash. */
class HandBuiltSource implements EnqueueFilterSource {
  readonly bitsKey: string;
  readonly setKey: string;
  readonly counterKey: string;
  constructor(
    readonly redis: RedisConnection,
    tag: string,
    private readonly mode: 'bits' | 'member',
  ) {
    this.bitsKey = `${tag}:test-bloom`;
    this.setKey = `${tag}:test-seen`;
    this.counterKey = `${tag}:test-dedup-stats`;
  }
  planEnqueueFilter(dedupKeys: string[]): EnqueueFilterPlan {
    return {
      keys: [this.bitsKey, this.setKey, this.counterKey],
      ops: dedupKeys.map((k) => (this.mode === 'bits' ? { type: 'bits', key: 0, offsets: offsetsOf(k) } : { type: 'member', key: 1, member: k })),
      counter: { key: 2, newField: 'itemsAdded', filteredField: 'filtered' },
    };
  }
  enqueueFilterKeys(): string[] {
    return [this.bitsKey, this.setKey, this.counterKey];
  }
}

/**
 * The sink side of docs/enqueue-filter-seam.md on one connection flavour.
 *
 * @param kind - connection flavour
 * @param url - the tests' Redis URL
 * @param shards - run it on a sharded queue (`shards: S` on one standalone Redis)
 */
export function defineSeamSuite(kind: BackendKind, url: () => string, shards = 1): void {
  describe(`enqueue-filter sink on ${kind}${shards > 1 ? `, shards: ${shards}` : ''}`, () => {
    let backend: TestBackend;
    let world: QueueWorld;
    let extraKeys: string[] = [];
    beforeAll(async () => {
      backend = await createBackend(kind, url());
    });
    afterAll(async () => {
      await backend?.stop();
    });
    afterEach(async () => {
      for (const key of extraKeys) await world.redis.del(key);
      extraKeys = [];
      await world.cleanup();
    });
    const setup = async (mode: 'bits' | 'member') => {
      world = createWorld(backend, 'queue', shards > 1 ? { shards } : {});
      const client = await world.client('a');
      expect(client.keys.tag).toBe(queueKeys(world.keyPrefix, world.name).tag);
      const source = new HandBuiltSource(client.redis, client.keys.tag, mode);
      extraKeys = source.enqueueFilterKeys();
      const sink: EnqueueFilterSink = client[ENQUEUE_FILTER_SINK];
      return { client, source, sink };
    };

    it('bits: a new key sets its bits and is enqueued; a key whose bits are all set is filtered (wasAlreadyPresent)', async () => {
      const { client, source, sink } = await setup('bits');
      expect(sink.canAttachEnqueueFilter(source)).toBe(true);
      const filteredCounts: number[] = [];
      sink.attachEnqueueFilter(source, { onFiltered: (n) => filteredCounts.push(n) });
      expect(await client.addRequest(req('new'))).toMatchObject({ wasAlreadyPresent: false });
      for (const offset of offsetsOf('https://example.com/new')) expect(await world.redis.getbit(source.bitsKey, Number(offset))).toBe(1);
      for (const offset of offsetsOf('https://example.com/seen')) await world.redis.setbit(source.bitsKey, Number(offset), 1);
      const result = await client.batchAddRequests([req('seen'), req('other')]);
      expect(result.processedRequests.map((p) => [p.wasAlreadyPresent, p.wasAlreadyHandled])).toEqual([[true, false], [false, false]]);
      expect(filteredCounts).toEqual([1]);
      expect(names((await client.listAndLockHead({ limit: 25, lockSecs: 60 })).items)).toEqual(['new', 'other']);
      expect(await world.redis.hgetall(source.counterKey)).toEqual({ itemsAdded: '2', filtered: '1' });
      expect(await client.get()).toMatchObject({ totalRequestCount: 2, pendingRequestCount: 2 });
    });

    it('member: SADD 1 enqueues, SADD 0 filters; a uniqueKey already in the queue still gets its op applied', async () => {
      const { client, source, sink } = await setup('member');
      await client.addRequest(req('before'));
      await world.redis.sadd(source.setKey, 'https://example.com/known');
      sink.attachEnqueueFilter(source);
      const { processedRequests } = await client.batchAddRequests([req('known'), req('fresh'), req('before')]);
      expect(processedRequests.map((p) => p.wasAlreadyPresent)).toEqual([true, false, true]);
      expect((await world.redis.smembers(source.setKey)).sort()).toEqual(['https://example.com/before', 'https://example.com/fresh', 'https://example.com/known']);
      expect(await world.redis.hgetall(source.counterKey)).toEqual({ itemsAdded: '2', filtered: '1' });
      sink.detachEnqueueFilter();
      expect(await client.addRequest(req('known'))).toMatchObject({ wasAlreadyPresent: false });
    });

    for (const mode of ['bits', 'member'] as const) {
      it(`${mode}: 8 concurrent clients add the same new dedup key under different uniqueKeys: exactly one is enqueued`, async () => {
        const { source } = await setup(mode);
        const clients = await Promise.all(Array.from({ length: 8 }, (_, i) => world.client(`c${i}`)));
        for (const c of clients) {
          // The dedup key ignores the query, so only the filter (not the queue's uniqueKey dedup) can stop duplicates.
          c[ENQUEUE_FILTER_SINK].attachEnqueueFilter(new HandBuiltSource(c.redis, c.keys.tag, mode), { keyOf: (r) => r.url.split('?')[0]! });
        }
        const results = await Promise.all(clients.map((c, i) => c.addRequest(req(`page?variant=${i}`))));
        expect(results.filter((r) => !r.wasAlreadyPresent)).toHaveLength(1);
        expect(await clients[0]!.get()).toMatchObject({ totalRequestCount: 1 });
        expect(await world.redis.hgetall(source.counterKey)).toEqual({ itemsAdded: '1', filtered: '7' });
      });
    }

    it('canAttach: same connection or same server and db yes; another server or db no; attach refuses an incompatible store', async () => {
      const { client, source, sink } = await setup('member');
      const queueRedis = client.redis;
      expect(sink.canAttachEnqueueFilter({ ...source, planEnqueueFilter: source.planEnqueueFilter.bind(source), enqueueFilterKeys: source.enqueueFilterKeys.bind(source), redis: queueRedis })).toBe(true);
      if (!backend.isCluster) {
        const same = new Redis({ ...(queueRedis as Redis).options, lazyConnect: true });
        const otherDb = new Redis({ ...(queueRedis as Redis).options, db: 3, lazyConnect: true });
        const otherServer = new Redis({ host: '127.0.0.1', port: 1, lazyConnect: true });
        const withRedis = (redis: unknown): EnqueueFilterSource => ({ redis, planEnqueueFilter: (k) => source.planEnqueueFilter(k), enqueueFilterKeys: () => source.enqueueFilterKeys() });
        expect(sink.canAttachEnqueueFilter(withRedis(same))).toBe(true);
        expect(sink.canAttachEnqueueFilter(withRedis(otherDb))).toBe(false);
        expect(sink.canAttachEnqueueFilter(withRedis(otherServer))).toBe(false);
        expect(() => sink.attachEnqueueFilter(withRedis(otherServer))).toThrow(EnqueueFilterIncompatibleError);
        [same, otherDb, otherServer].forEach((r) => r.disconnect());
      } else {
        // On a Cluster, keys outside the queue's hash tag (another slot) cannot join the add script.
        const outside: EnqueueFilterSource = { redis: queueRedis, planEnqueueFilter: (k) => source.planEnqueueFilter(k), enqueueFilterKeys: () => ['dupefilter-elsewhere'] };
        expect(sink.canAttachEnqueueFilter(outside)).toBe(false);
        expect(() => sink.attachEnqueueFilter(outside)).toThrow(EnqueueFilterIncompatibleError);
      }
    });
  });
}
