// One worker process of the feed + Bloom tests (the scrapy-redis migration path): a BasicCrawler on a Redis request
// queue fed by a start-URL list, with a fresh RedisBloomDedupStore attached through withDedup. Each handled page
// offers two links (one new, one already seen). Prints one JSON line: the pages it handled and the error, if any.
import process from 'node:process';
import { URL } from 'node:url';
import { BasicCrawler, Configuration } from 'crawlee';
import { Redis } from 'ioredis';

const config = JSON.parse(process.argv[2]);
const { openRedisRequestQueue } = await import(config.queueDist);
const { RedisBloomDedupStore, withDedup } = await import(config.dedupDist);

const redis = new Redis(config.redisUrl);
const out = { handled: [], error: null };
try {
  const queue = await openRedisRequestQueue(config.queueName, {
    redis,
    keyPrefix: config.keyPrefix,
    startUrlsKey: config.feedKey,
    startUrls: { batchSize: config.batchSize },
  });
  const store = new RedisBloomDedupStore({ redis, key: config.storeKey, capacity: 10_000, errorRate: 1e-6, recipe: 'scrapy' });
  withDedup(queue, { store });
  const crawler = new BasicCrawler(
    {
      requestQueue: queue,
      maxConcurrency: 2,
      maxRequestRetries: 0,
      useSessionPool: false,
      async requestHandler({ request, addRequests }) {
        out.handled.push(request.url);
        const page = Number(new URL(request.url).searchParams.get('p'));
        if (page < config.linksBelow) await addRequests([`https://feed.example/page?p=${page + 1000}`, request.url]);
      },
      failedRequestHandler({ request }, error) {
        out.error ??= `${request.url}: ${error.message}`;
      },
    },
    new Configuration({ persistStorage: false, purgeOnStart: false }),
  );
  await crawler.run();
  await store.close();
} catch (error) {
  out.error = String(error?.message ?? error);
}
redis.disconnect();
process.stdout.write(`${JSON.stringify(out)}\n`);
