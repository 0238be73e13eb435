import { spawnSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { slotOf } from '@crawlee-distributed/redis-kit';
import { InvalidOptionsError } from '../../src/errors/invalid-options-error.js';
import { queueKeys } from '../../src/core/keys.js';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, names, type QueueWorld } from '../helpers/world.js';

// The frontier is written by the real scrapy-redis queue classes (vendored scrapy_redis/queue.py, Scrapy 2.8,
// redis-py), so the takeover reads exactly what a Scrapy fleet leaves in <spider>:requests.
const PYTHON = process.env['SCRAPY_PYTHON'] ?? '/usr/bin/python3';
const SCRAPY_REDIS_SRC = process.env['SCRAPY_REDIS_SRC'] ?? new URL('../../../../../shared/vendor/scrapy-redis/src', import.meta.url).pathname;
const PUSH = String.raw`
import json, sys, redis
from scrapy import Request, Spider
from scrapy_redis import queue
url, key, cls, spec = sys.argv[1:5]
server = redis.Redis.from_url(url)
spider = Spider(name='s')
q = getattr(queue, cls)(server, spider, key)
for path, priority in json.loads(spec):
    q.push(Request('https://example.com/' + path, priority=priority, meta={'p': priority}))
`;

function scrapyPush(world: QueueWorld, key: string, cls: string, spec: Array<[string, number]>): void {
  const r = spawnSync(PYTHON, ['-c', PUSH, inject('redisUrl'), key, cls, JSON.stringify(spec)], {
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: SCRAPY_REDIS_SRC },
  });
  if (r.status !== 0) throw new Error(`scrapy-redis push failed (needs python3-scrapy, python3-redis, vendored scrapy-redis): ${r.stderr}`);
}

let backend: TestBackend;
let world: QueueWorld;
let key: string;
beforeAll(async () => {
  backend = await createBackend('ioredis6-resp3', inject('redisUrl'));
});
afterAll(async () => {
  await backend.stop();
});
afterEach(async () => {
  await world.redis.del(key);
  await world.cleanup();
});

async function headOrder(w: QueueWorld): Promise<string[]> {
  const c = await w.client('reader');
  return names((await c.listAndLockHead({ limit: 50, lockSecs: 30 })).items);
}

describe('RedisQueueAdmin.takeOverScrapyRequests', () => {
  it('PriorityQueue: Scrapy pop order (highest priority first) kept; unreadable entries dead-lettered with the reason', async () => {
    world = createWorld(backend);
    key = `${world.keyPrefix}-spider:requests`;
    scrapyPush(world, key, 'PriorityQueue', [['low', -3], ['mid', 0], ['high', 5], ['top', 9]]);
    await world.redis.zadd(key, -100, 'not a pickle');
    const admin = world.admin();
    const result = await admin.takeOverScrapyRequests({ key, batchSize: 2 });
    expect(result).toEqual({ moved: 4, alreadyPresent: 0, deadLettered: 1, gone: 0, batches: 3 });
    expect(await world.redis.exists(key)).toBe(0);
    expect(await headOrder(world)).toEqual(['top', 'high', 'mid', 'low']);
    const [letter] = await admin.listDeadLetters();
    expect(letter).toMatchObject({ source: 'takeover', raw: Buffer.from('not a pickle') });
    expect(letter!.id).toMatch(/^takeover-[0-9a-f]{16}$/);
    expect(letter!.reason).toMatch(/scrapy-redis pickle entry unreadable: not a pickle/);
    expect(await admin.stats()).toMatchObject({ total: 4, pending: 4, deadLetters: 1 });
  });

  it('FifoQueue and LifoQueue: the queue order is Scrapy pop order', async () => {
    world = createWorld(backend);
    key = `${world.keyPrefix}-spider:requests`;
    scrapyPush(world, key, 'FifoQueue', [['a', 0], ['b', 0], ['c', 0]]);
    await world.admin().takeOverScrapyRequests({ key, queueClass: 'fifo', batchSize: 2 });
    expect(await headOrder(world)).toEqual(['a', 'b', 'c']);
    await world.cleanup();
    world = createWorld(backend);
    scrapyPush(world, key, 'LifoQueue', [['a', 0], ['b', 0], ['c', 0]]);
    await world.admin().takeOverScrapyRequests({ key, queueClass: 'lifo', batchSize: 2 });
    expect(await headOrder(world)).toEqual(['c', 'b', 'a']);
  });

  it('a re-run over entries already moved stores nothing twice and only empties the source', async () => {
    world = createWorld(backend);
    key = `${world.keyPrefix}-spider:requests`;
    scrapyPush(world, key, 'PriorityQueue', [['x', 0], ['y', 1]]);
    const copy = await world.redis.zrangeBuffer(key, '0', '-1', 'WITHSCORES'); // pickles are binary: keep the bytes
    const admin = world.admin();
    await admin.takeOverScrapyRequests({ key, uniqueKey: (r) => `fp:${r.url}` });
    const pairs = copy.reverse().map((b, i) => (i % 2 === 0 ? b.toString() : b));
    await world.redis.zadd(key, ...(pairs as [string, Buffer])); // as if killed between the two steps of the cross-slot path
    const again = await admin.takeOverScrapyRequests({ key, uniqueKey: (r) => `fp:${r.url}` });
    expect(again).toMatchObject({ moved: 0, alreadyPresent: 2, gone: 0 });
    expect(await world.redis.exists(key)).toBe(0);
    expect(await admin.stats()).toMatchObject({ total: 2, pending: 2 });
  });

  it('bad options and a key of another Redis type are rejected before anything is moved', async () => {
    world = createWorld(backend);
    key = `${world.keyPrefix}-spider:requests`;
    scrapyPush(world, key, 'PriorityQueue', [['x', 0]]);
    const admin = world.admin();
    await expect(admin.takeOverScrapyRequests({ key, queueClass: 'fifo' })).rejects.toThrow(InvalidOptionsError);
    await expect(admin.takeOverScrapyRequests({ key, queueClass: 'fifo' })).rejects.toThrow(/is a Redis zset.*use 'priority'/);
    await expect(admin.takeOverScrapyRequests({ key, batchSize: 0 })).rejects.toThrow(/batchSize must be an integer from 1 to 10000/);
    await expect(admin.takeOverScrapyRequests({ key, serializer: 'msgpack' as 'json' })).rejects.toThrow(InvalidOptionsError);
    await expect(admin.takeOverScrapyRequests({ key: '' })).rejects.toThrow(InvalidOptionsError);
    expect(await world.redis.zcard(key)).toBe(1);
    expect(await world.redis.exists(queueKeys(world.keyPrefix, world.name).data)).toBe(0);
  });
});


// On a Cluster the Scrapy key (`<spider>:requests`, no hash tag) lives on another slot than the queue: the requests
// are stored first, then removed from Scrapy's key. Killed in between, a re-run only removes them.
describe('takeover on a Redis Cluster (Scrapy key on another slot)', () => {
  const PICKLES = String.raw`
import json, pickle, sys
from scrapy import Request
print(json.dumps([pickle.dumps(Request('https://example.com/' + p, priority=pr).to_dict(), protocol=4).hex()
                  for p, pr in json.loads(sys.argv[1])]))
`;
  let cluster: TestBackend;
  beforeAll(async () => {
    cluster = await createBackend('cluster-ioredis6', inject('redisUrl'));
  });
  afterAll(async () => {
    await cluster.stop();
  });

  it('moves every request once, in priority order, and a re-run after a crash between the steps stores nothing twice', async () => {
    world = createWorld(cluster);
    key = `${world.keyPrefix}-spider:requests`;
    expect(slotOf(key)).not.toBe(slotOf(queueKeys(world.keyPrefix, world.name).tag));
    const r = spawnSync(PYTHON, ['-c', PICKLES, JSON.stringify([['p0', 0], ['p2', 2], ['p1', 1]])], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    const raws = (JSON.parse(r.stdout) as string[]).map((h) => Buffer.from(h, 'hex'));
    // As scrapy-redis's PriorityQueue.push: ZADD score -priority.
    for (const [i, raw] of raws.entries()) await world.redis.zadd(key, String(-[0, 2, 1][i]!), raw);
    const admin = world.admin();
    expect(await admin.takeOverScrapyRequests({ key, batchSize: 2 })).toMatchObject({ moved: 3, alreadyPresent: 0, batches: 2 });
    expect(await world.redis.exists(key)).toBe(0);
    for (const [i, raw] of raws.entries()) await world.redis.zadd(key, String(-[0, 2, 1][i]!), raw);
    expect(await admin.takeOverScrapyRequests({ key })).toMatchObject({ moved: 0, alreadyPresent: 3 });
    expect(await world.redis.exists(key)).toBe(0);
    expect(await admin.stats()).toMatchObject({ total: 3, pending: 3 });
    expect(await headOrder(world)).toEqual(['p2', 'p1', 'p0']);
  });
});
