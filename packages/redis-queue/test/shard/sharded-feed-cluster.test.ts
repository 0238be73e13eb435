// The start-URL feed and the scrapy-redis takeover into a sharded queue (shards: 12) on a local 3-master Redis
// Cluster: the feed key and Scrapy's frontier are on other slots than the shards, so neither hand-over can be one
// script. A worker process SIGKILLed between the pop and the add loses nothing (its claim, in the feed's slot, is
// replayed) and three consumer processes handle every item exactly once; a takeover moves every request once, into
// the shard of its uniqueKey, also when re-run after a crash between its two steps.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { slotOf } from '@crawlee-distributed/redis-kit';
import { startRedisCluster, type RedisClusterHandle } from '@crawlee-distributed/test-utils';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisQueueAdmin } from '../../src/index.js';
import type { RedisConnection } from '../../src/core/connection.js';
import { shardQueueKeys } from '../../src/shard/shard-keys.js';
import { shardOf } from '../../src/shard/shard-of.js';
import { RedisStorageClient } from '../../src/storage/redis-storage-client.js';
import { feedKillScenario } from './feed-kill.js';

const SHARDS = 12;
const PYTHON = process.env['SCRAPY_PYTHON'] ?? '/usr/bin/python3';

let cluster: RedisClusterHandle;
let redis: Cluster;
beforeAll(async () => {
  cluster = await startRedisCluster({ masters: 3 });
  redis = new Cluster(cluster.nodes);
}, 60_000);
afterAll(async () => {
  redis?.disconnect();
  await cluster?.stop();
});

describe(`sharded queue (shards: ${SHARDS}) on a 3-master Redis Cluster: feed and takeover`, () => {
  it('a consumer killed between the pop and the add loses nothing; 3 consumer processes handle every feed item exactly once', async () => {
    await feedKillScenario(redis, { clusterNodes: cluster.nodes }, SHARDS, 3, 300);
  }, 300_000);

  it('a takeover moves every request once into the shard of its uniqueKey; a re-run after a crash between the steps stores nothing twice', async () => {
    const keyPrefix = `sft-${randomUUID().slice(0, 8)}`;
    const name = 'take';
    const key = `${keyPrefix}-spider:requests`;
    const storage = new RedisStorageClient({ redis: redis as unknown as RedisConnection, keyPrefix, shards: SHARDS });
    await storage.requestQueues().getOrCreate(name);
    // Pickled request dicts as scrapy-redis's PriorityQueue stores them (ZADD score -priority).
    const PICKLES = String.raw`
import json, pickle, sys
from scrapy import Request
print(json.dumps([pickle.dumps(Request('https://h%d.example/p%d' % (i % 30, i), priority=i % 5).to_dict(), protocol=4).hex() for i in range(240)]))
`;
    const r = spawnSync(PYTHON, ['-c', PICKLES], { encoding: 'utf8', maxBuffer: 1 << 24 });
    if (r.status !== 0) throw new Error(`scrapy pickles failed (needs python3-scrapy): ${r.stderr}`);
    const raws = (JSON.parse(r.stdout) as string[]).map((h) => Buffer.from(h, 'hex'));
    const zadd = async () => {
      for (const [i, raw] of raws.entries()) await redis.zadd(key, String(-(i % 5)), raw);
    };
    await zadd();
    const shardSlots = Array.from({ length: SHARDS }, (_, s) => slotOf(shardQueueKeys(keyPrefix, name, s, SHARDS).tag));
    expect(shardSlots).not.toContain(slotOf(key));
    const admin = new RedisQueueAdmin({ redis: redis, keyPrefix, name });
    expect(await admin.takeOverScrapyRequests({ key, batchSize: 50 })).toEqual({ moved: 240, alreadyPresent: 0, deadLettered: 0, gone: 0, batches: 5 });
    expect(await redis.exists(key)).toBe(0);
    const totals = await Promise.all(shardSlots.map((_, s) => redis.hget(shardQueueKeys(keyPrefix, name, s, SHARDS).meta, 'total').then(Number)));
    const expected = Array.from({ length: SHARDS }, () => 0);
    for (let i = 0; i < 240; i++) expected[shardOf(`https://h${i % 30}.example/p${i}`, SHARDS, 'host')]!++;
    expect(totals).toEqual(expected);
    await zadd(); // as if killed after the shards stored the batches, before they left Scrapy's key
    expect(await admin.takeOverScrapyRequests({ key, batchSize: 50 })).toMatchObject({ moved: 0, alreadyPresent: 240 });
    expect(await redis.exists(key)).toBe(0);
    expect(await admin.stats()).toMatchObject({ total: 240, pending: 240 });
    await admin.dropHashTag();
    await admin.close();
  }, 120_000);
});
