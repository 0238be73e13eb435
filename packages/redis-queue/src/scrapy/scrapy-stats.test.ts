import { CheerioCrawler, Configuration } from 'crawlee';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, inject, it } from 'vitest';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { openRedisRequestQueue } from '../open-redis-request-queue.js';
import { attachScrapyStats } from './attach-scrapy-stats.js';
import { ScrapyStatsWriter } from './scrapy-stats-writer.js';

describe('scrapy-redis <spider>:stats written by a real crawl', () => {
  it('two CheerioCrawler workers add their downloads, statuses and items into one hash with scrapy-redis field names', async () => {
    const server = createServer((req, res) => {
      res.statusCode = req.url === '/missing' ? 404 : 200;
      res.setHeader('content-type', 'text/html');
      res.end(`<html><title>${req.url}</title><a href="/b">b</a><a href="/c">c</a><a href="/missing">m</a></html>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const redis = new Redis(inject('redisUrl'));
    const key = `stats-${randomUUID()}:stats`;
    const keyPrefix = `st-${randomUUID().slice(0, 8)}`;
    try {
      const before = Date.now() / 1000;
      const worker = async (n: number) => {
        const requestQueue = await openRedisRequestQueue('crawl', { redis, keyPrefix });
        const crawler = new CheerioCrawler(
          {
            requestQueue,
            maxRequestRetries: 0,
            async requestHandler({ enqueueLinks, pushData, request }) {
              await pushData({ url: request.url, worker: n });
              await enqueueLinks();
            },
          },
          new Configuration({ persistStorage: false }),
        );
        attachScrapyStats(crawler, { redis, key, intervalSecs: 0.2 });
        await crawler.run(n === 0 ? [`${origin}/a`] : []);
      };
      await Promise.all([worker(0), worker(1)]);
      const stats = await redis.hgetall(key);
      expect(stats['downloader/response_status_count/200']).toBe('3');
      expect(stats['downloader/response_status_count/404']).toBe('1');
      expect(stats['response_received_count']).toBe('4');
      expect(stats['downloader/response_count']).toBe('4');
      expect(stats['downloader/request_count']).toBe('4');
      expect(stats['downloader/request_method_count/GET']).toBe('4');
      // Crawlee hands a 404 page to the request handler too (no retry for 4xx), so it is an item here.
      expect(stats['item_scraped_count']).toBe('4');
      expect(stats['finish_reason']).toBe('finished');
      const start = Number(stats['start_time']);
      const finish = Number(stats['finish_time']);
      expect(start).toBeGreaterThanOrEqual(Math.floor(before));
      expect(finish).toBeGreaterThanOrEqual(start);
      expect(Number(stats['elapsed_time_seconds'])).toBeGreaterThanOrEqual(0);
    } finally {
      await redis.del(key);
      const keys = await redis.keys(`{${keyPrefix}:*`);
      if (keys.length) await redis.del(...keys);
      await redis.del(`${keyPrefix}:rq:index`);
      redis.disconnect();
      server.close();
    }
  });

  it('bad options are InvalidOptionsError; nothing is written', () => {
    const redis = new Redis(inject('redisUrl'), { lazyConnect: true });
    expect(() => new ScrapyStatsWriter({ redis, key: '' })).toThrow(InvalidOptionsError);
    expect(() => new ScrapyStatsWriter({ redis, key: 'k', intervalSecs: 0 })).toThrow(InvalidOptionsError);
    expect(() => new ScrapyStatsWriter({ redis: undefined as never, key: 'k' })).toThrow(InvalidOptionsError);
    expect(() => attachScrapyStats({ run: () => Promise.resolve(), pushData: () => Promise.resolve() }, { redis, key: 'k' })).toThrow(/navigation hooks/);
    redis.disconnect();
  });
});
