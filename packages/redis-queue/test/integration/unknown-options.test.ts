import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { RedisQueueAdmin } from '../../src/admin/redis-queue-admin.js';
import { startDashboard } from '../../src/dashboard/start-dashboard.js';
import { exportDataset } from '../../src/dataset/export-dataset.js';
import { InvalidOptionsError } from '../../src/errors/invalid-options-error.js';
import { createMetricsRegistry } from '../../src/metrics/create-metrics-registry.js';
import { openRedisRequestQueue } from '../../src/open-redis-request-queue.js';
import { nearestName } from '@crawlee-distributed/redis-kit';
import { RedisStorageClient, STORAGE_CLIENT_OPTIONS } from '../../src/storage/redis-storage-client.js';

// A misspelt option is refused with the nearest known name, before anything connects or is written; every option
// the README documents is still accepted.

const url = inject('redisUrl');
const keyPrefix = `typo-${Date.now()}`;
const redis = new Redis(url);
afterAll(async () => {
  await redis.quit();
});

async function refusal(make: () => unknown): Promise<InvalidOptionsError> {
  let error: unknown;
  try {
    await make();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(InvalidOptionsError);
  return error as InvalidOptionsError;
}

// Untyped on purpose: a JavaScript user (or a config file) gets no compile-time check.
const loose = (o: Record<string, unknown>) => o as never;

describe('unknown option names', () => {
  const cases: Array<[string, () => unknown, string, string]> = [
    ['politeness', () => openRedisRequestQueue('q', loose({ redis: url, keyPrefix, politeness: { minDelay: 1 } })), 'minDelay', 'minDelaySecs'],
    ['politeness.retryBackoff', () => new RedisStorageClient(loose({ redis: url, keyPrefix, politeness: { retryBackoff: { baseSec: 1 } } })), 'baseSec', 'baseSecs'],
    ['handledBloom', () => new RedisStorageClient(loose({ redis: url, keyPrefix, handledRequests: 'bits', handledBloom: { expectedRequest: 10 } })), 'expectedRequest', 'expectedRequests'],
    ['handledBloom (without bits)', () => new RedisStorageClient(loose({ redis: url, keyPrefix, handledBloom: { falsePositiveRat: 0.01 } })), 'falsePositiveRat', 'falsePositiveRate'],
    ['durability', () => new RedisStorageClient(loose({ redis: url, keyPrefix, durability: { replica: 1 } })), 'replica', 'replicas'],
    ['startUrls', () => new RedisStorageClient(loose({ redis: url, keyPrefix, startUrls: { batchsize: 10 } })), 'batchsize', 'batchSize'],
    ['workerStats', () => new RedisStorageClient(loose({ redis: url, keyPrefix, workerStats: { interval: 5 } })), 'interval', 'intervalSecs'],
    ['RedisStorageClient', () => new RedisStorageClient(loose({ redis: url, keyPrefix, maxStall: 2 })), 'maxStall', 'maxStalls'],
    ['openRedisRequestQueue', () => openRedisRequestQueue('q', loose({ redis: url, keyPrefix, lockSec: 60 })), 'lockSec', 'lockSecs'],
    ['openRedisRequestQueue (storage client key)', () => openRedisRequestQueue('q', loose({ redis: url, keyPrefix, keyprefix: 'x' })), 'keyprefix', 'keyPrefix'],
    ['RedisQueueAdmin', () => new RedisQueueAdmin(loose({ redis: url, keyPrefix, name: 'q', startUrlKey: 'x' })), 'startUrlKey', 'startUrlsKey'],
    ['takeOverScrapyRequests', () => new RedisQueueAdmin({ redis: url, keyPrefix, name: 'q' }).takeOverScrapyRequests(loose({ key: 's:requests', serialiser: 'json' })), 'serialiser', 'serializer'],
    ['producer lease', () => new RedisQueueAdmin({ redis: url, keyPrefix, name: 'q' }).openProducerLease(loose({ leaseSec: 30 })), 'leaseSec', 'leaseSecs'],
    ['startDashboard', () => startDashboard(loose({ redis: url, keyPrefix, prot: 0 })), 'prot', 'port'],
    ['exportDataset', () => exportDataset(loose({ redis: url, keyPrefix, name: 'd', format: 'csv', chunksize: 10 })), 'chunksize', 'chunkSize'],
    ['createMetricsRegistry', () => createMetricsRegistry(loose({ redis: url, keyPrefix, queue: ['q'] })), 'queue', 'queues'],
  ];
  for (const [where, make, typo, suggestion] of cases) {
    it(`${where}: "${typo}" is refused with "did you mean ${suggestion}?"`, async () => {
      const error = await refusal(make);
      expect(error.message).toContain(`no option "${typo}"`);
      expect(error.message).toContain(`did you mean ${suggestion}?`);
      expect(error.code).toBe('INVALID_OPTIONS');
    });
  }

  it('nothing was written for any of them', async () => {
    expect(await redis.keys(`*${keyPrefix}*`)).toEqual([]);
  });

  it('a name far from every known one gets no guess, only the list', async () => {
    const error = await refusal(() => new RedisStorageClient(loose({ redis: url, keyPrefix, politeness: { zzzzzz: 1 } })));
    expect(error.message).not.toContain('did you mean');
    expect(error.message).toContain('minDelaySecs, maxConcurrencyPerHost, hostKey, retryBackoff');
  });

  it('nearestName: prefix, transposition and case', () => {
    expect(nearestName('minDelay', ['minDelaySecs', 'maxConcurrencyPerHost'])).toBe('minDelaySecs');
    expect(nearestName('shrads', ['shards', 'shardBy'])).toBe('shards');
    expect(nearestName('KEYPREFIX', ['keyPrefix', 'redis'])).toBe('keyPrefix');
    expect(nearestName('x', ['redis'])).toBeUndefined();
  });

  it('every option the API reference (docs/api.md) documents for RedisStorageClient and openRedisRequestQueue is accepted', async () => {
    const readme = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    const section = (from: string, to: string) => readme.slice(readme.indexOf(from), readme.indexOf(to, readme.indexOf(from)));
    const names = (text: string) => [...text.matchAll(/^\| `([a-zA-Z]+)` +\|/gm)].map((m) => m[1]!);
    const clientNames = names(section('### `new RedisStorageClient(options?)`', '#### Ranges'));
    const openNames = names(section('### `openRedisRequestQueue(name, options?)`', '### `new RedisStorageClient'));
    expect(clientNames.length).toBeGreaterThan(20);
    for (const name of clientNames) expect(Object.hasOwn(STORAGE_CLIENT_OPTIONS, name), name).toBe(true);
    expect(openNames).toContain('lockSecs');
    // Each accepted: a queue opened with the documented names passes the name check (values are the defaults).
    const q = await openRedisRequestQueue('documented', { redis: url, keyPrefix, requestHandlerTimeoutSecs: 60, lockSecs: 60, fastProlong: true, reconnectTimeoutSecs: 60, workerStats: false });
    await new RedisQueueAdmin({ redis: url, keyPrefix, name: 'documented' }).drop();
    expect(q.name).toBe('documented');
  });
});
