// A sharded queue (shards: 12) on a local 3-master Redis Cluster: the shards and the requests spread over every
// master, and worker processes crawl through the cluster exactly once, also with one worker SIGKILLed.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startRedisCluster, type RedisClusterHandle } from '@crawlee-distributed/test-utils';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisQueueAdmin } from '../../src/index.js';
import type { RedisConnection } from '../../src/core/connection.js';
import { shardQueueKeys } from '../../src/shard/shard-keys.js';
import { ConnectionHandle } from '../../src/core/connection.js';
import { runScript } from '../../src/core/scripts.js';
import { RedisStorageClient } from '../../src/storage/redis-storage-client.js';
import type { RedisRequestQueueClient } from '../../src/storage/redis-request-queue-client.js';
import { Fleet, waitUntil, type WorkerConfig } from '../multiprocess/fleet.js';
import { inFlight, summarize } from '../multiprocess/worker-log.js';

const SHARDS = 12;
const MAX = 1000;

const SITE_PAGES = 400;
const SITE_HOSTS = 12;
const SITE_WORKER = fileURLToPath(new URL('./site-worker.mjs', import.meta.url));

let cluster: RedisClusterHandle;
let redis: Cluster;
let site: Server;
/** Page n of the loopback site, on host 127.0.0.(1 + n % 12): one server answers every loopback address. */
const pageUrl = (n: number) => `http://127.0.0.${1 + (n % SITE_HOSTS)}:${(site.address() as AddressInfo).port}/p/${n}`;
beforeAll(async () => {
  cluster = await startRedisCluster({ masters: 3 });
  redis = new Cluster(cluster.nodes);
  // A binary tree of pages: page n links to 2n and 2n + 1, so every page is reached from page 1 exactly by links.
  site = createServer((req, res) => {
    const n = Number(/^\/p\/(\d+)$/.exec(req.url ?? '')?.[1]);
    if (!(n >= 1 && n <= SITE_PAGES)) return void res.writeHead(404).end();
    const links = [2 * n, 2 * n + 1].filter((m) => m <= SITE_PAGES).map((m) => `<a href="${pageUrl(m)}">${m}</a>`);
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><h1>${n}</h1>${links.join(' ')}</body></html>`);
  });
  await new Promise<void>((resolve) => site.listen(0, '0.0.0.0', resolve));
}, 60_000);
afterAll(async () => {
  redis?.disconnect();
  await new Promise((resolve) => site?.close(resolve));
  await cluster?.stop();
});

/** Requests per master: the sum of HLEN data of the shards each master owns. */
async function requestsPerMaster(keyPrefix: string, name: string): Promise<number[]> {
  const masters = redis.nodes('master');
  const counts = masters.map(() => 0);
  for (let s = 0; s < SHARDS; s++) {
    // The shard's request count (its meta's total: handled requests leave data for the handled store).
    const key = shardQueueKeys(keyPrefix, name, s, SHARDS).meta;
    const slot = Number(await redis.cluster('KEYSLOT', key));
    const owner = redis.slots[slot]![0]!;
    const index = masters.findIndex((m) => `${m.options.host}:${m.options.port}` === owner);
    counts[index]! += Number((await redis.hget(key, 'total')) ?? 0);
  }
  return counts;
}

describe(`sharded queue (shards: ${SHARDS}) on a 3-master Redis Cluster`, () => {
  it('shards and requests spread over every master: each holds 20% to 45% of the requests', async () => {
    const keyPrefix = `shc-${randomUUID().slice(0, 8)}`;
    for (const shardBy of ['host', 'uniqueKey'] as const) {
      const name = `spread-${shardBy}`;
      const storage = new RedisStorageClient({ redis: redis as unknown as RedisConnection, keyPrefix, shards: SHARDS, shardBy });
      await storage.requestQueues().getOrCreate(name);
      const client = storage.requestQueue(name) as RedisRequestQueueClient;
      // 3000 requests: 300 hosts with 10 pages each.
      const requests = Array.from({ length: 3000 }, (_, i) => {
        const url = `https://site${i % 300}.example/page/${i}`;
        return { url, uniqueKey: url };
      });
      await client.batchAddRequests(requests);
      const counts = await requestsPerMaster(keyPrefix, name);
      console.log(`shards: ${SHARDS}, shardBy ${shardBy}: requests per master ${counts.join(' / ')} of 3000`);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(3000);
      for (const n of counts) {
        expect(n / 3000, `${shardBy}: ${counts.join(' / ')}`).toBeGreaterThanOrEqual(0.2);
        expect(n / 3000, `${shardBy}: ${counts.join(' / ')}`).toBeLessThanOrEqual(0.45);
      }
      expect((await client.get())?.totalRequestCount).toBe(3000);
      const admin = new RedisQueueAdmin({ redis: redis, keyPrefix, name });
      expect((await admin.stats()).total).toBe(3000);
      await admin.dropHashTag();
    }
  });

  it('scripts on keys of different masters in one event-loop turn, through an auto-pipelining Cluster client', async () => {
    // ioredis groups an auto-pipelined command by the slot of its first argument; a script called as
    // (numberOfKeys, ...keys) would be grouped by the slot of "8" and fail with "All keys in the pipeline should belong
    // to the same slots allocation group". The kit gives each key count a command whose first argument is a key.
    const auto = new Cluster(cluster.nodes, { enableAutoPipelining: true });
    try {
      const handle = new ConnectionHandle(auto);
      const keyPrefix = `shp-${randomUUID().slice(0, 8)}`;
      // A plain command first (what the admin's layout read does), then 12 scripts at once on 12 shards' keys.
      await auto.get(`${keyPrefix}:nothing`);
      const metas = Array.from({ length: SHARDS }, (_, s) => shardQueueKeys(keyPrefix, 'p', s, SHARDS).meta);
      const created = await Promise.all(metas.map((meta) => handle.run(() => runScript(auto as unknown as RedisConnection, 'createQueue', [meta], ['p', 'p', '0', '', 'key', '48', '', '', '', '']))));
      // createQueue answers { created, politeness ('' without), format }.
      expect(created).toEqual(metas.map(() => [1, '', '2']));
      for (const meta of metas) expect(await redis.hget(meta, 'id')).toBe('p');
      await Promise.all(metas.map((meta) => redis.del(meta)));
    } finally {
      auto.disconnect();
    }
  });

  const fleetConfig = (lockSecs: number): WorkerConfig => ({
    redisUrl: 'unused',
    clusterNodes: cluster.nodes,
    keyPrefix: `shf-${randomUUID().slice(0, 8)}`,
    queueName: 'graph',
    max: MAX,
    handlerMs: 10,
    concurrency: 3,
    handlerTimeoutSecs: 30,
    lockSecs,
    // The graph's requests are all on one host; by uniqueKey they spread over the 12 shards.
    queueOptions: { shards: SHARDS, shardBy: 'uniqueKey' },
  });

  async function withFleet(config: WorkerConfig, body: (fleet: Fleet, admin: RedisQueueAdmin) => Promise<void>, script?: string): Promise<void> {
    const fleet = new Fleet(config, script);
    const admin = new RedisQueueAdmin({ redis: redis, keyPrefix: config.keyPrefix, name: config.queueName });
    let failed = true;
    try {
      await body(fleet, admin);
      failed = false;
    } finally {
      await fleet.destroy(failed);
      if (failed) console.error(`sharded fleet result files kept in ${fleet.dir}`);
      await admin.dropHashTag();
    }
  }

  it('three worker processes handle all 1000 requests exactly once through the cluster and finish together', { timeout: 180_000 }, async () => {
    await withFleet(fleetConfig(10), async (fleet, admin) => {
      await fleet.startTogether(3);
      const codes = await fleet.waitAll(150_000);
      const logs = fleet.logs();
      expect(codes, fleet.describe()).toEqual([0, 0, 0]);
      expect(logs.flatMap((l) => l.errors)).toEqual([]);
      const summary = summarize(logs, MAX);
      expect(summary.missing).toEqual([]);
      expect(summary.startedTwice).toEqual([]);
      expect(summary.totalDone).toBe(MAX);
      // Nobody finished while another still had work in any shard.
      for (const log of logs) expect(log.finishedAt!).toBeGreaterThanOrEqual(summary.lastDoneAt);
      expect(await admin.stats()).toEqual({ total: MAX, pending: 0, locked: 0, handled: MAX, deadLetters: 0 });
      // The work was done in every shard (the graph spread over them).
      const handled = await Promise.all(Array.from({ length: SHARDS }, (_, s) => redis.hget(shardQueueKeys(fleet.config.keyPrefix, 'graph', s, SHARDS).meta, 'handled')));
      for (const n of handled) expect(Number(n)).toBeGreaterThan(0);
    });
  });

  it('one worker SIGKILLed mid-crawl while it holds locks: nothing is lost, only its in-flight requests run twice', { timeout: 180_000 }, async () => {
    await withFleet(fleetConfig(2), async (fleet, admin) => {
      const workers = await fleet.startTogether(3);
      let victim: (typeof workers)[number] | undefined;
      await waitUntil(
        () => {
          if (summarize(fleet.logs(), MAX).totalDone < MAX * 0.3) return false;
          victim = workers.reduce((a, b) => (inFlight(a.log()).length >= inFlight(b.log()).length ? a : b));
          return inFlight(victim.log()).length > 0;
        },
        120_000,
        '30% done and a worker inside a handler',
        5,
      );
      const victimKey = victim!.log().clientKey!;
      victim!.child.kill('SIGKILL');
      const killedAt = Date.now();
      await victim!.exited;
      expect((await admin.lockExpiries()).locked).toBeGreaterThan(0);
      const survivors = workers.filter((w) => w !== victim);
      const codes = await Promise.race([
        Promise.all(survivors.map((w) => w.exited)),
        new Promise((_, reject) => setTimeout(() => reject(new Error(`survivors did not finish\n${fleet.describe()}`)), 120_000)),
      ]);
      expect(codes, fleet.describe()).toEqual([0, 0]);
      const victimLog = victim!.log();
      const survivorLogs = survivors.map((w) => w.log());
      expect(survivorLogs.flatMap((l) => l.errors)).toEqual([]);
      expect(victimLog.finishedAt).toBeUndefined();
      expect(victimKey).toBeTruthy();
      const summary = summarize([victimLog, ...survivorLogs], MAX);
      expect(summary.missing).toEqual([]);
      for (const i of summary.startedTwice) {
        expect(victimLog.starts.get(i)?.length, `request ${i}`).toBe(1);
        expect(victimLog.starts.get(i)![0]!).toBeLessThan(killedAt);
      }
      for (const i of inFlight(victimLog)) expect(survivorLogs.some((l) => l.dones.has(i)), `request ${i}`).toBe(true);
      for (const log of survivorLogs) for (const [i, ts] of log.starts) expect(ts.length, `request ${i}`).toBe(1);
      expect(await admin.stats()).toEqual({ total: MAX, pending: 0, locked: 0, handled: MAX, deadLetters: 0 });
    });
  });

  const siteConfig = (lockSecs: number): WorkerConfig => ({
    ...fleetConfig(lockSecs),
    max: SITE_PAGES,
    startUrl: pageUrl(1),
    queueName: 'site',
    // Crawlee's default uniqueKey is the URL, so by host (the default rule) each host's pages share one shard.
    queueOptions: { shards: SHARDS },
  });

  it('three CheerioCrawler processes crawl a 12-host site through the cluster: every page exactly once', { timeout: 180_000 }, async () => {
    await withFleet(
      siteConfig(10),
      async (fleet, admin) => {
        await fleet.startTogether(3);
        const codes = await fleet.waitAll(150_000);
        const logs = fleet.logs();
        expect(codes, fleet.describe()).toEqual([0, 0, 0]);
        expect(logs.flatMap((l) => l.errors)).toEqual([]);
        const summary = summarize(logs, SITE_PAGES);
        expect(summary.missing).toEqual([]);
        expect(summary.startedTwice).toEqual([]);
        expect(logs.flatMap((l) => l.failed)).toEqual([]);
        for (const log of logs) expect(log.finishedAt!).toBeGreaterThanOrEqual(summary.lastDoneAt);
        expect(await admin.stats()).toEqual({ total: SITE_PAGES, pending: 0, locked: 0, handled: SITE_PAGES, deadLetters: 0 });
        // Each host's pages are in one shard, and the hosts' shards are on every master.
        const perMaster = await requestsPerMaster(fleet.config.keyPrefix, 'site');
        for (const n of perMaster) expect(n, perMaster.join(' / ')).toBeGreaterThan(0);
      },
      SITE_WORKER,
    );
  });

  it('the same crawl with one CheerioCrawler SIGKILLed mid-crawl: every page done, only its in-flight pages twice', { timeout: 180_000 }, async () => {
    await withFleet(
      { ...siteConfig(3), handlerMs: 20 },
      async (fleet, admin) => {
        const workers = await fleet.startTogether(3);
        let victim: (typeof workers)[number] | undefined;
        await waitUntil(
          () => {
            if (summarize(fleet.logs(), SITE_PAGES).totalDone < SITE_PAGES * 0.25) return false;
            victim = workers.reduce((a, b) => (inFlight(a.log()).length >= inFlight(b.log()).length ? a : b));
            return inFlight(victim.log()).length > 0;
          },
          120_000,
          '25% of the pages done and a worker inside a handler',
          5,
        );
        victim!.child.kill('SIGKILL');
        const killedAt = Date.now();
        await victim!.exited;
        expect((await admin.lockExpiries()).locked).toBeGreaterThan(0);
        const survivors = workers.filter((w) => w !== victim);
        const codes = await Promise.race([
          Promise.all(survivors.map((w) => w.exited)),
          new Promise((_, reject) => setTimeout(() => reject(new Error(`survivors did not finish\n${fleet.describe()}`)), 120_000)),
        ]);
        expect(codes, fleet.describe()).toEqual([0, 0]);
        const victimLog = victim!.log();
        const survivorLogs = survivors.map((w) => w.log());
        expect(survivorLogs.flatMap((l) => l.errors)).toEqual([]);
        const summary = summarize([victimLog, ...survivorLogs], SITE_PAGES);
        expect(summary.missing).toEqual([]);
        for (const i of summary.startedTwice) expect(victimLog.starts.get(i)![0]!, `page ${i}`).toBeLessThan(killedAt);
        for (const i of inFlight(victimLog)) expect(survivorLogs.some((l) => l.dones.has(i)), `page ${i}`).toBe(true);
        for (const log of survivorLogs) for (const [i, ts] of log.starts) expect(ts.length, `page ${i}`).toBe(1);
        expect(await admin.stats()).toEqual({ total: SITE_PAGES, pending: 0, locked: 0, handled: SITE_PAGES, deadLetters: 0 });
      },
      SITE_WORKER,
    );
  });
});
