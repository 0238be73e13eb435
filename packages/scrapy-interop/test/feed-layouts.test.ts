import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FleetProcess } from '../src/index.js';
import { Harness, until } from './helpers/harness.js';

// (d) scrapy-redis start-URL feeds in the layouts other than the default list, consumed at once by a real Scrapy
// spider (vendored scrapy-redis: REDIS_START_URLS_AS_SET, REDIS_START_URLS_AS_ZSET, a list redis_key) and a Crawlee
// worker (crawlee-redis-queue's startUrls.type / keys): every item is fetched exactly once, by one fleet, both
// fleets take some, and the feed keys end empty.
const harness = new Harness();
const spiderFile = fileURLToPath(new URL('./python/layout_spider.py', import.meta.url));
const workerFile = fileURLToPath(new URL('./fixtures/feed-worker.mjs', import.meta.url));
let server: Server;
let origin: string;
const fetches: Array<{ path: string; agent: string }> = [];

beforeAll(async () => {
  await harness.start();
  // Slow pages: either fleet alone would need several seconds for a feed, so the second joins in time.
  server = createServer((req, res) => {
    fetches.push({ path: req.url ?? '', agent: String(req.headers['user-agent'] ?? '') });
    setTimeout(() => {
      res.setHeader('content-type', 'text/html');
      res.end(`<html><title>${req.url}</title></html>`);
    }, 250);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => harness.stopProcesses());
afterAll(async () => {
  await harness.stop();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function scrapy(spider: string, keys: string[], settings: string[]): FleetProcess {
  const args = ['-m', 'scrapy', 'runspider', spiderFile, '-a', `name=${spider}`, '-a', `keys=${keys.join(',')}`, '-a', 'worker=s1'];
  args.push('-s', `REDIS_URL=${harness.server.url}`, ...settings.flatMap((s) => ['-s', s]));
  return new FleetProcess('scrapy s1', harness.setup.python, args, {
    cwd: mkdtempSync(join(tmpdir(), 'scrapy-layout-')),
    env: { ...process.env, PYTHONPATH: harness.setup.scrapyRedisSrc, PYTHONDONTWRITEBYTECODE: '1' },
    logFile: join(harness.logDir, `scrapy-${spider}.log`),
  });
}

function crawlee(queue: string, type: string, keys: string[]): FleetProcess {
  return new FleetProcess('crawlee c1', process.execPath, [workerFile, harness.server.url, queue, 'c1', type, '4', ...keys], {
    logFile: join(harness.logDir, `crawlee-${queue}.log`),
  });
}

async function bothFleets(name: string, keys: string[], fill: (paths: string[]) => Promise<void>, settings: string[], type: string): Promise<void> {
  const paths = Array.from({ length: 24 }, (_, i) => `/${name}/${i}`);
  await fill(paths);
  const before = fetches.length;
  const spider = harness.name(name);
  const s = scrapy(spider, keys, settings);
  await until(() => fetches.slice(before).some((f) => f.agent.startsWith('scrapy-fleet/')), 60_000, 'the first Scrapy request');
  const c = crawlee(harness.name(`rq-${name}`), type, keys);
  for (const p of [s, c]) expect(await p.waitForExit(120_000), p.tail()).toBe(0);
  const mine = fetches.slice(before).filter((f) => f.path.startsWith(`/${name}/`));
  expect(mine.map((f) => f.path).sort(), 'each item fetched exactly once').toEqual([...paths].sort());
  expect(mine.filter((f) => f.agent.startsWith('scrapy-fleet/')).length, 'items Scrapy took').toBeGreaterThan(0);
  expect(mine.filter((f) => f.agent.startsWith('crawlee-fleet/')).length, 'items Crawlee took').toBeGreaterThan(0);
  for (const key of keys) expect(await harness.redis.exists(key), `${key} left`).toBe(0);
}

describe('start-URL feeds in every scrapy-redis layout, shared by both fleets', () => {
  it('a set feed (REDIS_START_URLS_AS_SET / type: set)', async () => {
    const key = harness.name('set') + ':start_urls';
    await bothFleets('set', [key], async (paths) => void (await harness.redis.sadd(key, ...paths.map((p) => origin + p))), ['REDIS_START_URLS_AS_SET=True'], 'set');
  });

  it('a sorted-set feed (REDIS_START_URLS_AS_ZSET / type: zset), JSON items', async () => {
    const key = harness.name('zset') + ':start_urls';
    await bothFleets(
      'zset',
      [key],
      async (paths) => void (await harness.redis.zadd(key, ...paths.flatMap((p, i) => [i, JSON.stringify({ url: origin + p, meta: { i } })]))),
      ['REDIS_START_URLS_AS_ZSET=True'],
      'zset',
    );
  });

  it("several list keys in priority order (scrapy-redis' list redis_key / keys)", async () => {
    const [high, low] = [harness.name('hi') + ':start_urls', harness.name('lo') + ':start_urls'];
    await bothFleets(
      'multi',
      [high, low],
      async (paths) => {
        await harness.redis.rpush(high, ...paths.slice(0, 12).map((p) => origin + p));
        await harness.redis.rpush(low, ...paths.slice(12).map((p) => origin + p));
      },
      [],
      'list',
    );
  });
});
