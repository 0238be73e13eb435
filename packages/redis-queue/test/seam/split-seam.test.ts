// The sink side of the seam's split (docs/enqueue-filter-seam.md, "Sharded queues") on a sharded queue (shards: 12)
// on a fresh local 3-master Redis Cluster, with a hand-built source that splits into one exact set per shard.
import { shardOf } from '@crawlee-distributed/redis-kit';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { ENQUEUE_FILTER_SINK, type EnqueueFilterPlan, type EnqueueFilterShardLayout, type EnqueueFilterSource, type EnqueueFilterSplit } from '../../src/internal.js';
import { EnqueueFilterIncompatibleError } from '../../src/errors/enqueue-filter-incompatible-error.js';
import { InvalidRequestError } from '../../src/errors/invalid-request-error.js';
import type { RedisConnection } from '../../src/core/connection.js';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, type QueueWorld } from '../helpers/world.js';

const SHARDS = 12;

/** A source whose part s is an exact set (and a counter) in `tags[s]`; `prepare` is counted, or fails when told. */
class SplittingSource implements EnqueueFilterSource {
  prepared = 0;
  failPrepare?: Error;
  layout?: EnqueueFilterShardLayout;
  constructor(readonly redis: RedisConnection) {}
  planEnqueueFilter(): EnqueueFilterPlan {
    throw new Error('a split source is never planned whole here');
  }
  enqueueFilterKeys(): string[] {
    return ['test-seen-elsewhere'];
  }
  splitEnqueueFilter(layout: EnqueueFilterShardLayout): EnqueueFilterSplit {
    this.layout = layout;
    const part = (tag: string): EnqueueFilterSource => ({
      redis: this.redis,
      planEnqueueFilter: (keys) => ({
        keys: [`${tag}:test-seen`, `${tag}:test-stats`],
        ops: keys.map((member) => ({ type: 'member', key: 0, member })),
        counter: { key: 1, newField: 'itemsAdded', filteredField: 'filtered' },
      }),
      enqueueFilterKeys: () => [`${tag}:test-seen`, `${tag}:test-stats`],
    });
    return {
      parts: layout.tags.map(part),
      partOf: (key) => shardOf(key, layout.tags.length, layout.shardBy),
      prepare: () => {
        this.prepared++;
        return this.failPrepare ? Promise.reject(this.failPrepare) : Promise.resolve();
      },
    };
  }
}

const page = (i: number) => {
  const url = `https://h${i % 30}.example/p/${i}`;
  return { url, uniqueKey: url, method: 'GET' as const, userData: {} };
};

describe(`enqueue-filter sink: a source split over the shards of a sharded queue (shards: ${SHARDS}) on a cluster`, () => {
  let backend: TestBackend;
  let world: QueueWorld;
  beforeAll(async () => {
    backend = await createBackend('cluster-ioredis6', inject('redisUrl'));
  }, 120_000);
  afterAll(async () => {
    await backend?.stop();
  });
  afterEach(async () => {
    await world?.cleanup();
  });

  const setup = async () => {
    world = createWorld(backend, 'queue', { shards: SHARDS });
    const client = await world.client('a');
    return { client, sink: client[ENQUEUE_FILTER_SINK], source: new SplittingSource(client.redis) };
  };

  it('attaches part s to shard s: each request meets its shard\'s part, in one script; a seen key is filtered', async () => {
    const { client, sink, source } = await setup();
    expect(sink.canAttachEnqueueFilter(source)).toBe(true);
    sink.attachEnqueueFilter(source);
    const tags = source.layout!.tags;
    expect(tags).toHaveLength(SHARDS);
    expect(source.layout!.shardBy).toBe('host');
    const requests = Array.from({ length: 120 }, (_, i) => page(i));
    const first = await client.batchAddRequests(requests);
    expect(first.processedRequests.every((p) => !p.wasAlreadyPresent)).toBe(true);
    expect(source.prepared).toBe(1);
    for (const [s, tag] of tags.entries()) {
      const members = (await world.redis.smembers(`${tag}:test-seen`)).sort();
      expect(members).toEqual(requests.filter((r) => shardOf(r.uniqueKey, SHARDS, 'host') === s).map((r) => r.uniqueKey).sort());
    }
    // Seen in its part (SADD 0): filtered, though the queue never held this uniqueKey.
    const known = page(7);
    const tag = tags[shardOf(known.uniqueKey, SHARDS, 'host')]!;
    const variant = { ...known, url: `${known.url}?x`, uniqueKey: `${known.url}?x` };
    await world.redis.sadd(`${tag}:test-seen`, variant.uniqueKey);
    expect((await client.batchAddRequests([variant])).processedRequests[0]).toMatchObject({ wasAlreadyPresent: true });
    expect(await client.get()).toMatchObject({ totalRequestCount: 120 });
  });

  it('a dedup key of another shard\'s part, or a failed prepare: the add is refused and nothing is written', async () => {
    const { client, sink, source } = await setup();
    // Every request's dedup key is one fixed key: it belongs to one part, most requests land in other shards.
    sink.attachEnqueueFilter(source, { keyOf: () => 'https://one.example/' });
    await expect(client.batchAddRequests(Array.from({ length: 30 }, (_, i) => page(i)))).rejects.toBeInstanceOf(InvalidRequestError);
    expect(await client.get()).toMatchObject({ totalRequestCount: 0 });
    for (const tag of source.layout!.tags) expect(await world.redis.exists(`${tag}:test-seen`)).toBe(0);

    sink.attachEnqueueFilter(source);
    source.failPrepare = new Error('layout mismatch');
    await expect(client.batchAddRequests([page(1), page(2)])).rejects.toThrow('layout mismatch');
    expect(await client.get()).toMatchObject({ totalRequestCount: 0 });
  });

  it('a source that cannot split, or splits into the wrong number of parts, does not attach', async () => {
    const { sink, source, client } = await setup();
    const whole: EnqueueFilterSource = { redis: client.redis, planEnqueueFilter: () => ({ keys: [], ops: [] }), enqueueFilterKeys: () => ['elsewhere'] };
    expect(sink.canAttachEnqueueFilter(whole)).toBe(false);
    expect(() => sink.attachEnqueueFilter(whole)).toThrow(EnqueueFilterIncompatibleError);
    const short: EnqueueFilterSource = { ...whole, splitEnqueueFilter: (layout) => { const split = source.splitEnqueueFilter(layout); return { ...split, parts: split.parts.slice(1) }; } };
    expect(sink.canAttachEnqueueFilter(short)).toBe(false);
    // Parts whose keys are not in their shard's slot (part s given shard s+1's tag).
    const shifted: EnqueueFilterSource = { ...whole, splitEnqueueFilter: (layout) => source.splitEnqueueFilter({ ...layout, tags: [...layout.tags.slice(1), layout.tags[0]!] }) };
    expect(sink.canAttachEnqueueFilter(shifted)).toBe(false);
  });
});
