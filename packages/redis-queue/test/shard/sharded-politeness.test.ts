// Politeness on a sharded queue: a host's politeness state lives in the shard of its host, so the fleet-wide rules
// hold across shards (one request per host at a time, backOffHost reaching the host's shard, stats summed), and the
// combinations that would split a host over shards are refused before anything is written.
import { randomUUID } from 'node:crypto';
import { afterAll, expect, inject, it } from 'vitest';
import { InvalidOptionsError, InvalidRequestError, RedisStorageClient, type RedisRequestQueueClient } from '../../src/index.js';

const keyPrefix = `shpol-${randomUUID().slice(0, 8)}`;
const clients: RedisStorageClient[] = [];
const open = (options: Partial<ConstructorParameters<typeof RedisStorageClient>[0]> = {}) => {
  const c = new RedisStorageClient({ redis: inject('redisUrl'), keyPrefix, shards: 6, politeness: { minDelaySecs: 30 }, ...options });
  clients.push(c);
  return c;
};
afterAll(async () => {
  for (const c of clients) await c.close();
});

const hosts = ['a.test', 'b.test', 'c.test', 'd.test', 'e.test', 'f.test', 'g.test', 'h.test'];
const req = (host: string, i: number) => ({ url: `https://${host}/p${i}`, uniqueKey: `https://${host}/p${i}` });

it('hands out one request per host across all shards, then none until the delay; backOffHost and stats reach every shard', async () => {
  const storage = open();
  const info = await storage.requestQueues().getOrCreate('fleet');
  const queue = storage.requestQueue(info.id) as RedisRequestQueueClient;
  await queue.batchAddRequests(hosts.flatMap((h) => [0, 1, 2].map((i) => req(h, i))));
  // A sharded lockHead answers from one shard at a time (its rotation); call until every shard has nothing to give.
  const lockedHosts: string[] = [];
  for (let call = 0; call < 40; call++) {
    const { items } = await queue.listAndLockHead({ limit: 50, lockSecs: 60 });
    if (items.length === 0) break;
    lockedHosts.push(...items.map((item) => new URL(item.url).hostname));
  }
  expect(lockedHosts.sort()).toEqual([...hosts].sort());
  expect((await queue.listAndLockHead({ limit: 50, lockSecs: 60 })).items).toHaveLength(0);

  const stats = await queue.politenessStats();
  expect(stats.hosts).toBe(hosts.length);
  expect(Object.values(stats.inFlight).reduce((a, b) => a + b, 0)).toBe(hosts.length);

  await queue.backOffHost('c.test', 600);
  const after = await queue.politenessStats();
  expect(after.longestWaitSecs).toBeGreaterThan(500);
});

it('refuses shardBy uniqueKey or a custom hostKey with politeness and shards > 1', () => {
  expect(() => open({ shardBy: 'uniqueKey' })).toThrow(InvalidOptionsError);
  expect(() => open({ politeness: { minDelaySecs: 1, hostKey: (u) => new URL(u).hostname } })).toThrow(/shardBy: "host" and the default hostKey/);
  expect(() => open({ shards: 1, shardBy: 'uniqueKey' })).not.toThrow();
});

it('refuses a request whose uniqueKey is not a URL of its own host, and writes nothing of its batch', async () => {
  const storage = open();
  const info = await storage.requestQueues().getOrCreate('keys');
  const queue = storage.requestQueue(info.id) as RedisRequestQueueClient;
  const attempt = queue.batchAddRequests([req('a.test', 1), { url: 'https://b.test/x', uniqueKey: 'fingerprint-0123' }]);
  await expect(attempt).rejects.toBeInstanceOf(InvalidRequestError);
  expect((await queue.get())?.totalRequestCount).toBe(0);
});
