/**
 * One crawl on a Redis Cluster, end to end: the example's real CLI (`dist/cli.js`), 3 worker processes, a
 * local 3-master cluster from test-utils, `--shards 12`, and the loopback multi-host site (helpers/multi-host-site.ts)
 * whose servers count every request. Asserted on what the site saw (every page answered once, or again only after
 * the kill cut it off), on the merged output, and on the keys each master holds.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { sleep, startRedisCluster, type RedisClusterHandle } from '@crawlee-distributed/test-utils';
import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunSummary } from '../src/coordinator/summary.js';
import type { PageRecord } from '../src/worker/page-record.js';
import { crawl, outputDir, runCli } from './helpers/run-cli.js';
import { processOfClientPort, startMultiHostSite, type MultiHostSite, type SiteHit } from './helpers/multi-host-site.js';
import { spawnCli } from './helpers/spawn-cli.js';

const SHARDS = 12;
const FLEET = ['--workers', '3', '--concurrency', '4', '--enqueue-strategy', 'all', '--progress-secs', '1', '--shards', String(SHARDS)];

let cluster: RedisClusterHandle;
/** `--redis`: every node as a seed, comma-separated (what ioredis' `new Cluster([...])` takes). */
let seeds: string;
const dirs: string[] = [];

beforeAll(async () => {
  cluster = await startRedisCluster({ masters: 3 });
  seeds = cluster.nodes.map((n) => `redis://${n.host}:${n.port}`).join(',');
});
afterAll(async () => {
  await cluster?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Keys of queue `name` (root tag and shard tags) on each master, by port. */
async function keysPerMaster(name: string): Promise<Map<number, string[]>> {
  const found = new Map<number, string[]>();
  for (const node of cluster.nodes) {
    const redis = new Redis({ host: node.host, port: node.port, maxRetriesPerRequest: 1 });
    try {
      if (!/role:master/.test(await redis.info('replication'))) continue;
      const keys: string[] = [];
      for await (const batch of redis.scanStream({ match: `*{crawlee:rq:${name}[}#]*`, count: 1000 })) keys.push(...(batch as string[]));
      found.set(node.port, keys);
    } finally {
      redis.disconnect();
    }
  }
  return found;
}

/** The worker requests the site saw per page URL (the coordinator's one start-URL check left out). */
function workerHitsPerPage(site: MultiHostSite): Map<string, SiteHit[]> {
  const perPage = new Map<string, SiteHit[]>(site.pageUrls.map((url) => [url, []]));
  for (const hit of site.hits.slice(1)) perPage.get(new URL(hit.path, site.origins[hit.host]).href)?.push(hit);
  return perPage;
}

function urlsOf(records: PageRecord[]): string[] {
  return records.map((r) => r.url).sort();
}

describe('one crawl on a local 3-master Redis Cluster, --shards 12, 3 worker processes', () => {
  it('crawls every page exactly once, with the queue spread over every master; another --shards for that queue is refused', async () => {
    const site = await startMultiHostSite({ hosts: 8, pagesPerHost: 6, delayMs: 100 });
    const dir = outputDir();
    dirs.push(dir);
    const queue = `cluster-e2e-${Date.now().toString(36)}`;
    try {
      // Time-outs of 40 % of --lock-secs: roomy, so a busy machine does not turn slow answers into retries.
      // --results redis: the page records go to one Redis dataset on its own hash tag (files in the kill test below).
      const { result, summary, records } = await crawl(dir, [...FLEET, '--lock-secs', '15', '--results', 'redis', '--start-url', site.startUrl, '--queue', queue], { REDIS_URL: seeds });
      expect(summary.shards).toBe(SHARDS);
      expect(summary.redisCluster).toBe(true);
      expect(summary.allPagesCrawled).toBe(true);
      expect(summary.uniquePages).toBe(site.pageUrls.length);
      expect(summary.queue).toMatchObject({ handled: site.pageUrls.length, pending: 0, locked: 0, deadLetters: 0 });
      // What the site saw: one answered GET per page, from the workers; a second one only for a page whose first
      // attempt failed (a time-out on a busy machine) and was retried.
      const retried = new Set(summary.retries.urls);
      for (const [url, hits] of workerHitsPerPage(site)) {
        if (!retried.has(url)) expect(hits.map((h) => h.status), url).toEqual([200]);
      }
      expect(summary.retries.count).toBeLessThanOrEqual(2);
      // The output: every page, each once.
      expect(urlsOf(records)).toEqual([...site.pageUrls].sort());
      expect(summary.pagesHandled).toBe(site.pageUrls.length);
      // The crawlee-redis export command reaches the Cluster through the run's seed nodes.
      expect(summary.resultsDataset).toMatchObject({ name: queue, records: site.pageUrls.length, kept: true });
      const exportCommand = summary.resultsDataset!.exportCommand!;
      expect(exportCommand).toBe(`npx --no crawlee-redis export ${queue} --format jsonl --output pages.jsonl --redis ${seeds} --key-prefix crawlee`);
      // The printed command works: the package's bin with its arguments, in a folder of its own.
      const bin = join(dirname(createRequire(import.meta.url).resolve('crawlee-redis-queue/package.json')), 'bin', 'crawlee-redis.js');
      const exportDir = join(dir, 'export');
      mkdirSync(exportDir);
      const exported = spawnSync(process.execPath, [bin, ...exportCommand.split(' ').slice(3)], { cwd: exportDir, encoding: 'utf8' });
      expect(exported.status, exported.stderr).toBe(0);
      expect(readFileSync(join(exportDir, 'pages.jsonl'), 'utf8').trimEnd().split('\n')).toHaveLength(site.pageUrls.length);
      const client = new Cluster(cluster.nodes);
      try {
        expect(await client.llen(`{crawlee:ds:${queue}}:items`)).toBe(site.pageUrls.length);
      } finally {
        client.disconnect();
      }
      expect(result.stdout).toMatch(/progress: handled \d+\/\d+ .*\| shards 12/);
      expect(result.stdout).toMatch(/dead letters 0 \(sums over 12 shards on the Redis Cluster\)/);

      // The crawl used every master: each holds the keys of 4 of the 12 shards (the queue places shard s in the
      // s-th twelfth of the slots; redis-cli --cluster create gives each master a third).
      const perMaster = await keysPerMaster(queue);
      expect(perMaster.size).toBe(3);
      for (const [port, keys] of perMaster) {
        const shardTags = new Set(keys.map((k) => /\{crawlee:rq:[^}#]+#([^}]+)\}/.exec(k)?.[1]).filter((t) => t !== undefined));
        expect(shardTags.size, `shards on the master at port ${port}`).toBe(SHARDS / 3);
      }

      // A resume with another count: refused before anything is served or written.
      const before = [...(await keysPerMaster(queue)).values()].flat().sort();
      const other = await runCli([...FLEET.slice(0, -2), '--shards', '4', '--start-url', site.startUrl, '--queue', queue, '--output', join(dir, 'other.jsonl')], { REDIS_URL: seeds });
      expect(other.code).toBe(1);
      expect(other.stdout + other.stderr).toContain(`queue ${queue} was created with --shards ${SHARDS}, this run asks for --shards 4`);
      expect(other.stdout + other.stderr).not.toContain('started worker');
      expect([...(await keysPerMaster(queue)).values()].flat().sort()).toEqual(before);
    } finally {
      await site.close();
    }
  }, 120_000);

  it('a worker SIGKILLed with requests in flight: the crawl still completes, every page once in the output, no key left', async () => {
    // Slow pages, so the kill finds a worker with requests in flight (as the site sees them).
    const site = await startMultiHostSite({ hosts: 8, pagesPerHost: 5, delayMs: (_h, path) => (path === '/index.html' ? 20 : 1000) });
    const dir = outputDir();
    dirs.push(dir);
    const summaryFile = join(dir, 'summary.json');
    const outputFile = join(dir, 'pages.jsonl');
    try {
      // The killed worker's requests come back within twice the lock time; its time-outs (40 %: 4.8 s) leave room for
      // a cold worker's first request on a busy machine.
      const run = spawnCli([...FLEET, '--lock-secs', '12', '--start-url', site.startUrl, '--summary-json', summaryFile, '--output', outputFile], { REDIS_URL: seeds });
      let killed: { pid: number; hit: SiteHit } | undefined;
      const deadline = Date.now() + 90_000;
      while (killed === undefined && Date.now() < deadline) {
        await sleep(100);
        const inFlight = site.hits.filter((hit) => hit.status === 0 && !hit.aborted && hit.path !== '/index.html' && Date.now() - hit.arrivedAt < 700);
        for (const hit of inFlight) {
          const pid = processOfClientPort(hit.clientPort, run.workerPids());
          if (pid !== undefined) {
            process.kill(pid, 'SIGKILL');
            killed = { pid, hit };
            break;
          }
        }
      }
      expect(killed, `a worker with a request in flight\n${run.output().slice(-3000)}`).toBeDefined();
      expect(await run.exited, run.output().slice(-3000)).toBe(0);
      const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as RunSummary;
      const records = readFileSync(outputFile, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as PageRecord);

      expect(summary.workers.filter((w) => w.exit.includes('SIGKILL'))).toHaveLength(1);
      expect(summary.allPagesCrawled).toBe(true);
      expect(summary.uniquePages).toBe(site.pageUrls.length);
      expect(summary.queue).toMatchObject({ handled: site.pageUrls.length, pending: 0, locked: 0, deadLetters: 0 });
      expect(urlsOf(records)).toEqual([...site.pageUrls].sort());
      // Every page was answered; one answered twice only when the killed worker had it (fetched, not yet handled).
      const perPage = workerHitsPerPage(site);
      for (const [url, hits] of perPage) expect(hits.filter((h) => h.status === 200).length, url).toBeGreaterThanOrEqual(1);
      const again = [...perPage].filter(([, hits]) => hits.length > 1);
      expect(again.length, again.map(([u]) => u).join(' ')).toBeLessThanOrEqual(4 + summary.retries.count); // in flight on the killed worker (--concurrency 4), and retries
      // The cut-off page came back when its lock expired and was answered then.
      const cut = killed!.hit;
      const cutUrl = new URL(cut.path, site.origins[cut.host]).href;
      expect(perPage.get(cutUrl)!.some((h) => h.status === 200 && h.arrivedAt > cut.finishedAt)).toBe(true);
      // The per-run queue is gone from every master: its shards, the dedup store, the counters.
      for (const [port, keys] of await keysPerMaster(summary.queueName)) expect(keys, `keys left on ${port}`).toEqual([]);
    } finally {
      await site.close();
    }
  }, 150_000);

  it('refuses what cannot work before anything starts: seed nodes of a standalone Redis, a database index, a --join of nothing', async () => {
    const standalone = inject('redisUrl');
    const dir = outputDir();
    dirs.push(dir);
    const twoStandalone = await runCli(['--demo', '--shards', '12', '--output', join(dir, 'a.jsonl')], { REDIS_URL: `${standalone},${standalone}` });
    expect(twoStandalone.code).toBe(2);
    expect(twoStandalone.stdout + twoStandalone.stderr).toMatch(/--redis lists 2 URLs, the seed nodes of a Redis Cluster, but .* is a standalone Redis/);
    const node = cluster.nodes[0]!;
    const db = await runCli(['--demo', '--output', join(dir, 'b.jsonl')], { REDIS_URL: `redis://${node.host}:${node.port}/3` });
    expect(db.code).toBe(1);
    expect(db.stdout + db.stderr).toContain('has no database 3 (a Redis Cluster has only database 0)');
    const join_ = await runCli(['--join', '--queue', 'cluster-nothing-here', '--output', join(dir, 'c.jsonl')], { REDIS_URL: seeds });
    expect(join_.code).toBe(1);
    expect(join_.stdout + join_.stderr).toContain('queue cluster-nothing-here on');
    for (const text of [twoStandalone, db, join_].map((r) => r.stdout + r.stderr)) expect(text).not.toMatch(/serving|started worker|at .*\.js:\d+/);
    for (const [port, keys] of await keysPerMaster('cluster-nothing-here')) expect(keys, `keys on ${port}`).toEqual([]);
  }, 60_000);
});
