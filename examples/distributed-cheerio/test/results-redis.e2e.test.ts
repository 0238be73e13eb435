// --results redis: the workers push their page records into one Redis dataset named after the queue (no records
// files), and the coordinator's summary and --output are read from there. Real Redis, the built CLI, real workers.
import { randomUUID } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { RedisQueueAdmin, RedisStorageClient } from 'crawlee-redis-queue';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { PageRecord } from '../src/worker/page-record.js';
import { crawl, outputDir, runCli } from './helpers/run-cli.js';

const redisUrl = inject('redisUrl');
const keyPrefix = `rr-${randomUUID().slice(0, 8)}`;
const redis = new Redis(redisUrl);
const dirs: string[] = [];

afterAll(async () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  // Every key of this file carries its random prefix.
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `*${keyPrefix}*`, 'COUNT', 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

async function datasetRecords(name: string): Promise<PageRecord[] | undefined> {
  const storage = new RedisStorageClient({ redis, keyPrefix, datasets: 'redis', workerStats: false });
  const info = await storage.dataset(name).get();
  if (!info) return undefined;
  return (await storage.dataset(name).listItems({ limit: info.itemCount })).items as unknown as PageRecord[];
}

describe('--results redis', () => {
  it('a named queue: every record in the Redis dataset "<queue>", the output read from it, no records files', async () => {
    const dir = outputDir();
    dirs.push(dir);
    const queue = `shop-${randomUUID().slice(0, 8)}`;
    const { summary, records, result } = await crawl(dir, ['--demo', '--results', 'redis', '--queue', queue, '--key-prefix', keyPrefix], { REDIS_URL: redisUrl });
    expect(summary.everyPageExactlyOnce).toBe(true);
    expect(summary.uniquePages).toBe(28);
    const stored = await datasetRecords(queue);
    expect(stored).toHaveLength(28);
    // The output holds exactly the dataset's pages, and the summary counts them from there.
    expect(records.map((r) => r.fingerprint).sort()).toEqual(stored!.map((r) => r.fingerprint).sort());
    expect(new Set(stored!.map((r) => r.worker)).size).toBeGreaterThanOrEqual(1);
    expect(summary.resultsDataset).toEqual({
      name: queue,
      records: 28,
      kept: true,
      exportCommand: `npx --no crawlee-redis export ${queue} --format jsonl --output pages.jsonl --redis ${redisUrl} --key-prefix ${keyPrefix}`,
    });
    expect(result.stdout + result.stderr).toContain(`results                 Redis dataset "${queue}", 28 records; kept`);
    expect(existsSync(join(dir, 'pages.jsonl.parts'))).toBe(false);

    // The workers closed their storage clients: their last stats say stopped, with every page they handled.
    const workers = await new RedisQueueAdmin({ redis, keyPrefix, name: queue }).workers();
    expect(workers.map((w) => w.state)).toEqual(['stopped', 'stopped']);
    expect(workers.reduce((sum, w) => sum + w.handled, 0)).toBe(28);

    // The queue dropped, its results kept: a new crawl of that name refuses to mix them in (exit 1, nothing added).
    await new RedisQueueAdmin({ redis, keyPrefix, name: queue }).drop();
    const again = await runCli(['--demo', '--results', 'redis', '--queue', queue, '--key-prefix', keyPrefix, '--output', join(dir, 'again.jsonl')], { REDIS_URL: redisUrl });
    expect(again.code).toBe(1);
    expect(again.stdout + again.stderr).toContain(`the Redis dataset "${queue}" already holds 28 record(s) of an earlier crawl`);
    expect(await datasetRecords(queue)).toHaveLength(28);
    expect(existsSync(join(dir, 'again.jsonl'))).toBe(false);
  });

  it('a per-run queue: the output has every page, the dataset goes with the finished queue', async () => {
    const dir = outputDir();
    dirs.push(dir);
    const { summary, records } = await crawl(dir, ['--demo', '--results', 'redis', '--key-prefix', keyPrefix], { REDIS_URL: redisUrl });
    expect(records).toHaveLength(28);
    expect(summary.resultsDataset).toMatchObject({ name: summary.queueName, records: 28, kept: false, exportCommand: null });
    expect(await datasetRecords(summary.queueName)).toBeUndefined();
  });

  it('a bad --results, or --results redis with --memory, exits 2 before anything starts', async () => {
    const bad = await runCli(['--demo', '--results', 'postgres']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--results must be one of files, redis, got "postgres".');
    const memory = await runCli(['--demo', '--results', 'redis', '--memory']);
    expect(memory.code).toBe(2);
    expect(memory.stderr).toContain('--results redis needs Redis; it cannot run with --memory.');
  });
});
