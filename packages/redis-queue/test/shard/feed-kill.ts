// The multi-process case of the sharded start-URL feed: a worker process claims a feed batch and is SIGKILLed
// before it adds any of it (between the pop and the add), then 2-3 consumer processes drain the feed. Every item
// must be handled exactly once across them, and the dead worker's batch must come back (replayed from its claim).
import { readFileSync, existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { RedisQueueAdmin } from '../../src/index.js';
import { feedClaimKeys } from '../../src/feed/feed-claims.js';
import type { RedisConnection } from '../../src/core/connection.js';
import { queueKeys } from '../../src/core/keys.js';
import { shardOf } from '../../src/shard/shard-of.js';
import { Fleet, waitUntil, type WorkerConfig } from '../multiprocess/fleet.js';

const FEED_WORKER = fileURLToPath(new URL('./feed-worker.mjs', import.meta.url));

/** Where the workers connect: a Redis URL or a Cluster's seed nodes. */
export type FeedTarget = { redisUrl: string } | { clusterNodes: Array<{ host: string; port: number }> };

/** The URLs handled (`D` lines) in a worker's event file. */
function handledUrls(file: string): string[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.startsWith('D ')).map((l) => l.slice(2));
}

/**
 * Runs the scenario and checks it.
 * @param redis - a connection for pushing and inspecting
 * @param target - what the workers connect to
 * @param shards - the queue's shard count
 * @param consumers - consumer processes after the kill
 * @param items - feed items (URLs over 20 hosts; two unreadable items besides)
 */
export async function feedKillScenario(redis: RedisConnection, target: FeedTarget, shards: number, consumers: number, items: number): Promise<void> {
  const keyPrefix = `sfk-${randomUUID().slice(0, 8)}`;
  const queueName = 'feedkill';
  const feedKey = `${keyPrefix}:${queueName}:start_urls`; // no hash tag: on a Cluster, on another slot than the shards
  const claims = feedClaimKeys(feedKey, queueKeys(keyPrefix, queueName).tag);
  const urls = Array.from({ length: items }, (_, i) => `https://h${i % 20}.example/p${i}`);
  await redis.rpush(feedKey, ...urls.slice(0, 10), 'not a url', ...urls.slice(10), '{"no":"url"}');
  const base = { ...target, keyPrefix, queueName, shards, feedKey, max: 0, handlerMs: 5, concurrency: 4, handlerTimeoutSecs: 10, lockSecs: 4 } as unknown as WorkerConfig;
  const victim = new Fleet({ ...base, batchSize: 50, hangOnAdd: true } as WorkerConfig, FEED_WORKER);
  const fleet = new Fleet({ ...base, batchSize: 20 } as WorkerConfig, FEED_WORKER);
  try {
    const [dead] = await victim.startTogether(1, 90_000);
    await waitUntil(() => readFileSync(dead!.resultFile, 'utf8').includes('\nH '), 60_000, 'the victim to claim a batch and start its add');
    dead!.child.kill('SIGKILL');
    expect(await dead!.exited).toBe('SIGKILL');
    // Killed between the pop and the add: 50 items left the feed, none reached a shard, the claim holds them.
    expect(await redis.llen(feedKey)).toBe(items + 2 - 50);
    expect(await redis.zcard(claims.claims)).toBe(1);
    const admin = new RedisQueueAdmin({ redis, keyPrefix, name: queueName });
    expect((await admin.stats()).total).toBe(0);

    await fleet.startTogether(consumers, 90_000);
    const exits = await fleet.waitAll(120_000);
    expect(exits, fleet.describe()).toEqual(Array.from({ length: consumers }, () => 0));
    const perWorker = fleet.workers.map((w) => handledUrls(w.resultFile));
    const all = perWorker.flat();
    expect(all.length).toBe(items); // exactly once: no URL twice across the consumers
    expect(new Set(all)).toEqual(new Set(urls));
    expect(perWorker.filter((got) => got.length > 0).length).toBeGreaterThanOrEqual(2); // the fleet shared the work
    expect(await admin.stats()).toMatchObject({ total: items, handled: items, pending: 0, locked: 0, deadLetters: 2 });
    expect(await redis.exists(feedKey, claims.claims)).toBe(0);
    const used = new Set(urls.map((u) => shardOf(u, shards, 'host')));
    expect(used.size).toBeGreaterThan(Math.min(shards, 20) / 2);
    await admin.dropHashTag();
    await admin.close();
    await redis.del(claims.claimed);
  } finally {
    await victim.destroy();
    await fleet.destroy();
  }
}
