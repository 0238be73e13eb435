import { startRedisCluster, type RedisClusterHandle } from '@crawlee-distributed/test-utils';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisBloomDedupStore, RedisSetDedupStore } from '../src/index.js';
import { slotOf } from '../src/internal.js';
import { chunks, fp, fps } from './helpers.js';

describe('Redis stores on a local 3-master cluster', () => {
  let cluster: RedisClusterHandle;
  let clients: Cluster[];
  beforeAll(async () => {
    cluster = await startRedisCluster({ masters: 3 });
    clients = Array.from({ length: 8 }, () => new Cluster(cluster.nodes));
    await Promise.all(clients.map((c) => c.ping()));
  }, 120_000);
  afterAll(async () => {
    clients?.forEach((c) => c.disconnect());
    await cluster?.stop();
  });

  it('spreads the blocks of an untagged key over the masters; one script call per slot', async () => {
    const store = await RedisBloomDedupStore.open({ redis: clients[0]!, key: 'spread', capacity: 40_000, errorRate: 1e-3, blocks: 8 });
    const slots = new Set(store.keys.blocks.map(slotOf));
    expect(slots.size).toBe(8);
    // Our CRC16 slot function agrees with the server's.
    for (const block of [...store.keys.blocks, store.keys.meta]) {
      expect(Number(await clients[0]!.call('CLUSTER', 'KEYSLOT', block))).toBe(slotOf(block));
    }
    const perNode = await Promise.all(clients[0]!.nodes('master').map((n) => n.dbsize()));
    expect(perNode.filter((n) => n > 0).length).toBeGreaterThanOrEqual(2);
    const keys = fps('spread', 0, 5000);
    expect((await store.add(keys.slice(0, 100))).filter(Boolean).length).toBeGreaterThan(95); // loads the script
    const sent: string[] = [];
    const sendCommand = clients[0]!.sendCommand.bind(clients[0]!);
    clients[0]!.sendCommand = ((command: { name: string }, ...rest: unknown[]) => {
      sent.push(command.name);
      return (sendCommand as (...a: unknown[]) => unknown)(command, ...rest);
    }) as typeof clients[0]['sendCommand'];
    const answers = await store.add(keys);
    clients[0]!.sendCommand = sendCommand;
    expect(answers.filter(Boolean).length).toBeGreaterThan(4890);
    // One script call per slot: 8 blocks on 8 slots, plus one HINCRBY of the shared counter (meta on another slot).
    expect(sent.filter((name) => name === 'evalsha' || name === 'eval')).toHaveLength(8);
    expect((await store.has(keys)).every(Boolean)).toBe(true);
    expect((await store.add(keys)).some(Boolean)).toBe(false);
    // The shared counter is bumped even though the blocks sit on other slots than the meta hash.
    expect((await store.stats()).itemsAdded).toBeGreaterThan(4990);
  });

  it('a tagged key keeps every block in its slot', async () => {
    const store = await RedisBloomDedupStore.open({ redis: clients[0]!, key: '{crawl-42}:bloom', capacity: 40_000, errorRate: 1e-3, blocks: 4 });
    expect(new Set([...store.keys.blocks, store.keys.meta].map(slotOf)).size).toBe(1);
    expect(await store.add([fp('tag', 1), fp('tag', 2)])).toEqual([true, true]);
    expect((await store.stats()).itemsAdded).toBe(2);
  });

  it('false-positive rate on 100,000 non-members within 1.2x of the target; no false negatives', async () => {
    const capacity = 50_000;
    const store = await RedisBloomDedupStore.open({ redis: clients[1]!, key: 'fp-cluster', capacity, errorRate: 0.01, blocks: 3 });
    const members = fps('member', 0, capacity);
    for (const batch of chunks(members, 1000)) await store.add(batch);
    for (const batch of chunks(members, 1000)) expect((await store.has(batch)).every(Boolean)).toBe(true);
    let falsePositives = 0;
    for (const batch of chunks(fps('non-member', 0, 100_000), 1000)) falsePositives += (await store.has(batch)).filter(Boolean).length;
    expect(falsePositives / 100_000).toBeLessThanOrEqual(0.012);
    expect(falsePositives / 100_000).toBeGreaterThan(0.005);
  });

  it('B16: the fingerprint is found after insert for small and large filters', async () => {
    const key = '75d6587d87b3f4f3aa574b33dbd69ceeb9eafe7b';
    for (const [capacity, blocks] of [[1_000, 1], [100_000, 2], [1_000_000, 5]] as const) {
      const store = await RedisBloomDedupStore.open({
        redis: clients[2]!, key: `b16-${capacity}`, capacity, errorRate: 1e-3, blocks, preallocate: false,
      });
      expect(await store.add([key])).toEqual([true]);
      expect(await store.has([key])).toEqual([true]);
    }
  });

  it('20 trials of 8 clients adding one new key: exactly one told "new" (Bloom and set)', async () => {
    const blooms = clients.map((redis) => new RedisBloomDedupStore({ redis, key: 'race', capacity: 10_000, errorRate: 1e-6, blocks: 3 }));
    const sets = clients.map((redis) => new RedisSetDedupStore({ redis, key: 'spider:dupefilter' }));
    await Promise.all(blooms.map((s) => s.open()));
    for (let trial = 0; trial < 20; trial++) {
      const key = fp('race-cluster', trial);
      const bloomAnswers = await Promise.all(blooms.map((s) => s.add([key])));
      expect(bloomAnswers.filter((a) => a[0]).length).toBe(1);
      const setAnswers = await Promise.all(sets.map((s) => s.add([key])));
      expect(setAnswers.filter((a) => a[0]).length).toBe(1);
    }
    expect((await sets[0]!.stats()).itemsAdded).toBe(20);
  });

  it('RedisSetDedupStore.forget on a Cluster: one MULTI on the set\'s slot, per-key answers, 8 clients racing', async () => {
    const sets = clients.map((redis) => new RedisSetDedupStore({ redis, key: 'forget:dupefilter' }));
    const keys = fps('forget-cluster', 0, 100);
    await sets[0]!.add(keys);
    const answers = await Promise.all(sets.map((s) => s.forget(keys)));
    keys.forEach((_, i) => expect(answers.filter((a) => a[i]).length).toBe(1));
    expect(await sets[1]!.has(keys.slice(0, 3))).toEqual([false, false, false]);
  });

  it('20 trials of 50 clients adding one new key: exactly one told "new"', async () => {
    const many = Array.from({ length: 50 }, () => new Cluster(cluster.nodes));
    try {
      const stores = many.map((redis) => new RedisBloomDedupStore({ redis, key: 'race50', capacity: 10_000, errorRate: 1e-6 }));
      await Promise.all(stores.map((s) => s.open()));
      for (let trial = 0; trial < 20; trial++) {
        const answers = await Promise.all(stores.map((s) => s.add([fp('race50', trial)])));
        expect(answers.filter((a) => a[0]).length).toBe(1);
      }
    } finally {
      many.forEach((c) => c.disconnect());
    }
  });
});
