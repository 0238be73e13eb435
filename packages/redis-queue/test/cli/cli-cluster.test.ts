// The built `crawlee-redis` bin on a sharded queue (shards: 6) of a real local 3-master Redis Cluster: reached
// through one node's URL (found to be a Cluster by INFO cluster) or the seed nodes separated by commas, as the
// library reaches it through an ioredis Cluster. ls, stats, watch, workers, export, the dashboard's API and drop.
import { randomUUID } from 'node:crypto';
import { startRedisCluster, startRedisServer, type RedisClusterHandle } from '@crawlee-distributed/test-utils';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisConnection } from '../../src/core/connection.js';
import { RedisStorageClient } from '../../src/storage/redis-storage-client.js';
import type { RedisRequestQueueClient } from '../../src/storage/redis-request-queue-client.js';
import { runBin, startBin } from './run-bin.js';

const SHARDS = 6;
const NAME = 'crawl';
const DATASET = 'crawl-pages';
const keyPrefix = `clc-${randomUUID().slice(0, 8)}`;

let cluster: RedisClusterHandle;
let redis: Cluster;
let storage: RedisStorageClient;
/** One node's URL, and every node's URL joined by commas. */
let oneNode: string;
let seeds: string;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  cluster = await startRedisCluster({ masters: 3 });
  redis = new Cluster(cluster.nodes);
  oneNode = `redis://127.0.0.1:${cluster.nodes[1]!.port}`;
  seeds = cluster.nodes.map((n) => `redis://${n.host}:${n.port}`).join(',');
  storage = new RedisStorageClient({
    redis: redis as unknown as RedisConnection,
    keyPrefix,
    shards: SHARDS,
    datasets: 'redis',
    workerStats: { intervalSecs: 0.1, ttlSecs: 30 },
  });
  await storage.requestQueues().getOrCreate(NAME);
  const client = storage.requestQueue(NAME, { clientKey: 'worker-a' }) as RedisRequestQueueClient;
  const urls = Array.from({ length: 60 }, (_, i) => `https://site${i % 20}.example/page/${i}`);
  await client.batchAddRequests(urls.map((url) => ({ url, uniqueKey: url })));
  // A sharded lock call takes from the shards it reaches (up to the limit, not always all of it): ask until 5 are locked.
  const items: Array<{ id: string }> = [];
  for (let i = 0; i < 20 && items.length < 5; i++) items.push(...(await client.listAndLockHead({ limit: 5 - items.length, lockSecs: 120 })).items);
  expect(items).toHaveLength(5);
  for (const item of items.slice(0, 2)) {
    const request = await client.getRequest(item.id);
    await client.updateRequest({ ...(request as { id: string; url: string; uniqueKey: string }), handledAt: new Date().toISOString() });
  }
  const { id } = await storage.datasets().getOrCreate(DATASET);
  await storage.dataset(id).pushItems(Array.from({ length: 30 }, (_, i) => ({ url: urls[i], title: `page ${i}` })));
  await sleep(400); // worker stats published
}, 120_000);

afterAll(async () => {
  await storage?.close().catch(() => undefined);
  redis?.disconnect();
  await cluster?.stop();
});

const cli = (redisUrl: string, args: string[]) => runBin([...args, '--redis', redisUrl, '--key-prefix', keyPrefix]);

/** Keys of this test's prefix on every master. */
async function keysOnMasters(): Promise<string[]> {
  const found: string[] = [];
  for (const master of redis.nodes('master')) found.push(...(await master.keys(`*${keyPrefix}*`)));
  return found;
}

describe('crawlee-redis on a Redis Cluster', () => {
  it('ls, stats, workers and watch read the sharded queue, through one node or the seed nodes', async () => {
    for (const target of [oneNode, seeds]) {
      const ls = await cli(target, ['ls', '--json']);
      expect(ls.code, ls.stderr).toBe(0);
      expect(JSON.parse(ls.stdout)).toEqual([{ name: NAME, total: 60, pending: 58, locked: 3, handled: 2, deadLetters: 0, workersAlive: 1 }]);
    }
    const stats = await cli(seeds, ['stats', NAME, '--json']);
    expect(stats.code, stats.stderr).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({ queue: NAME, total: 60, handled: 2, locked: 3, workers: { alive: 1 } });
    const text = await cli(oneNode, ['stats', NAME]);
    expect(text.stdout).toMatch(/handled:\s+2 \(3\.3%\)/);

    const workers = await cli(oneNode, ['workers', NAME, '--json']);
    expect(workers.code, workers.stderr).toBe(0);
    expect(JSON.parse(workers.stdout)).toMatchObject([{ state: 'alive', clientKey: 'worker-a', handled: 2 }]);

    const watch = await cli(seeds, ['watch', NAME, '--frames', '2', '--interval', '0.2', '--json']);
    expect(watch.code, watch.stderr).toBe(0);
    const frames = watch.stdout.trim().split('\n').map((line) => JSON.parse(line) as { frame: number; total: number; shards: unknown[] });
    expect(frames.map((f) => [f.frame, f.total, f.shards.length])).toEqual([[1, 60, SHARDS], [2, 60, SHARDS]]);
    const watchText = await cli(oneNode, ['watch', NAME, '--frames', '1']);
    expect(watchText.stdout).toContain(`shards: ${SHARDS}, pending per shard`);
  });

  it('export streams the Redis dataset; the dashboard API shows the queue and its shards', async () => {
    const exported = await cli(oneNode, ['export', DATASET]);
    expect(exported.code, exported.stderr).toBe(0);
    const lines = exported.stdout.trim().split('\n').map((line) => JSON.parse(line) as { title: string });
    expect(lines.map((l) => l.title)).toEqual(Array.from({ length: 30 }, (_, i) => `page ${i}`));

    const dashboard = startBin(['dashboard', '--port', '0', '--json', '--redis', seeds, '--key-prefix', keyPrefix]);
    try {
      for (let i = 0; i < 200 && !dashboard.output().includes('\n'); i++) await sleep(50);
      const { url } = JSON.parse(dashboard.output()) as { url: string };
      const overview = (await (await fetch(`${url}api/overview`)).json()) as { queues: Array<{ name: string; stats: { total: number }; shards: unknown[] }> };
      expect(overview.queues.map((q) => [q.name, q.stats.total, q.shards.length])).toEqual([[NAME, 60, SHARDS]]);
    } finally {
      dashboard.child.kill('SIGTERM');
    }
    expect(await dashboard.exited).toBe(0);
  });

  it('drop deletes every key of every shard on every master', async () => {
    expect((await keysOnMasters()).some((key) => key.includes(`:rq:${NAME}`))).toBe(true);
    // The worker stops first (a live worker publishes its record again after a drop).
    await storage.close();
    const dropped = await cli(seeds, ['drop', NAME, '--yes']);
    expect(dropped.code, dropped.stderr).toBe(0);
    expect(dropped.stdout).toContain(`dropped queue "${NAME}": 60 request(s)`);
    expect((await keysOnMasters()).filter((key) => key.includes(`:rq:${NAME}`))).toEqual([]);
    expect(JSON.parse((await cli(oneNode, ['ls', '--json'])).stdout)).toEqual([]);
  });

  it('several URLs of a standalone server: a usage error that says so (exit 2)', async () => {
    const standalone = `redis://127.0.0.1:${cluster.nodes[0]!.port}`;
    const server = await startRedisServer();
    try {
      const res = await cli(`redis://127.0.0.1:${server.port},${standalone}`, ['ls']);
      expect(res.code).toBe(2);
      expect(res.stderr).toContain('is not in cluster mode; give one URL');
    } finally {
      await server.destroy();
    }
  });
});
