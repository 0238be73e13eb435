// Bounds: every numeric option of crawlee-redis-queue has a documented range, checked up front. NaN,
// Infinity, negative, fractional (for whole numbers), huge and non-number values each get an InvalidOptionsError,
// and nothing is written to Redis (a huge addBatchSize used to overflow the stack inside ioredis).
import { randomUUID } from 'node:crypto';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  createMetricsRegistry,
  exportDataset,
  InvalidOptionsError,
  openRedisRequestQueue,
  RedisQueueAdmin,
  RedisStorageClient,
  startDashboard,
  startMetricsServer,
} from '../../src/index.js';
import { OPTION_RANGES } from '../../src/options/option-ranges.js';
import { createBackend, type TestBackend } from '../helpers/backends.js';

let backend: TestBackend;
let url: string;
const keyPrefix = `ranges-${randomUUID().slice(0, 8)}`;
beforeAll(async () => {
  url = inject('redisUrl');
  backend = await createBackend('ioredis6-resp3', url);
});
afterAll(async () => {
  await backend.stop();
});

const COMMON: unknown[] = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e15, -1e15, '5', null, {}, true, 10n];
const badValues = (whole: boolean, negativeOk = false): unknown[] => [...COMMON, ...(negativeOk ? [] : [-1]), ...(whole ? [0.5, 2.5] : [])];

type Attempt = (value: unknown) => unknown;
const CASES: Array<[string, boolean, Attempt, boolean?]> = [
  ['addBatchSize', true, (v) => new RedisStorageClient({ redis: url, keyPrefix, addBatchSize: v as number })],
  ['recoverLimit', true, (v) => new RedisStorageClient({ redis: url, keyPrefix, recoverLimit: v as number })],
  ['maxStalls', true, (v) => new RedisStorageClient({ redis: url, keyPrefix, maxStalls: v as number })],
  ['connectTimeoutSecs', false, (v) => new RedisStorageClient({ redis: url, keyPrefix, connectTimeoutSecs: v as number })],
  ['failoverTimeoutSecs', false, (v) => new RedisStorageClient({ redis: url, keyPrefix, failoverTimeoutSecs: v as number })],
  ['durability.replicas', true, (v) => new RedisStorageClient({ redis: url, keyPrefix, durability: { replicas: v as number } })],
  ['durability.timeoutSecs', false, (v) => new RedisStorageClient({ redis: url, keyPrefix, durability: { timeoutSecs: v as number } })],
  ['startUrls.batchSize', true, (v) => new RedisStorageClient({ redis: url, keyPrefix, startUrls: { batchSize: v as number } })],
  ['startUrls.maxIdleSecs', false, (v) => new RedisStorageClient({ redis: url, keyPrefix, startUrls: { maxIdleSecs: v as number } })],
  ['workerStats.intervalSecs', false, (v) => new RedisStorageClient({ redis: url, keyPrefix, workerStats: { intervalSecs: v as number } })],
  ['workerStats.ttlSecs', false, (v) => new RedisStorageClient({ redis: url, keyPrefix, workerStats: { ttlSecs: v as number } })],
  ['workerStats.deadRetentionSecs', false, (v) => new RedisStorageClient({ redis: url, keyPrefix, workerStats: { deadRetentionSecs: v as number } })],
  ['clockOffsetMs', false, (v) => new RedisStorageClient({ redis: url, keyPrefix, clockOffsetMs: v as number }), true],
  ['openRedisRequestQueue addBatchSize', true, (v) => openRedisRequestQueue('q', { redis: url, keyPrefix, addBatchSize: v as number })],
  ['openRedisRequestQueue maxStalls', true, (v) => openRedisRequestQueue('q', { redis: url, keyPrefix, maxStalls: v as number })],
  ['requestHandlerTimeoutSecs', false, (v) => openRedisRequestQueue('q', { redis: url, keyPrefix, requestHandlerTimeoutSecs: v as number })],
  ['lockSecs', false, (v) => openRedisRequestQueue('q', { redis: url, keyPrefix, lockSecs: v as number })],
  ['RedisQueueAdmin connectTimeoutSecs', false, (v) => new RedisQueueAdmin({ redis: url, keyPrefix, name: 'q', connectTimeoutSecs: v as number })],
  ['RedisQueueAdmin.workers retentionSecs', false, async (v) => {
    const admin = new RedisQueueAdmin({ redis: backend.connect(), keyPrefix, name: 'q' });
    try {
      return await admin.workers({ retentionSecs: v as number });
    } finally {
      await admin.close();
    }
  }],
  ['startDashboard port', true, (v) => startDashboard({ redis: url, keyPrefix, port: v as number })],
  ['startMetricsServer port', true, (v) => startMetricsServer(new Registry(), v as number)],
  ['createMetricsRegistry cacheMs', false, (v) => createMetricsRegistry({ redis: url, keyPrefix, cacheMs: v as number })],
  ['exportDataset chunkSize', true, (v) => exportDataset({ redis: url, keyPrefix, name: 'd', format: 'jsonl', chunkSize: v as number })],
];

describe('numeric option ranges of crawlee-redis-queue', () => {
  it.each(CASES)('%s: NaN, Infinity, negative, fractional, huge and non-number values are InvalidOptionsError', async (_name, whole, attempt, negativeOk) => {
    for (const value of badValues(whole, negativeOk)) {
      let error: unknown;
      try {
        await attempt(value);
      } catch (caught) {
        error = caught;
      }
      expect(error, `${_name} = ${String(value)}`).toBeInstanceOf(InvalidOptionsError);
      expect((error as Error).message, `${_name} = ${String(value)}`).toMatch(/must be/);
    }
  });

  it('the limits themselves are accepted and nothing was written under the key prefix', async () => {
    const { addBatchSize, maxStalls } = OPTION_RANGES;
    for (const value of [addBatchSize.min, addBatchSize.max]) await new RedisStorageClient({ redis: backend.connect(), keyPrefix, addBatchSize: value, workerStats: false }).close();
    for (const value of [maxStalls.min, maxStalls.max]) await new RedisStorageClient({ redis: backend.connect(), keyPrefix, maxStalls: value, workerStats: false }).close();
    const redis = backend.connect();
    try {
      const [, keys] = await redis.scan('0', 'MATCH', `*${keyPrefix}*`, 'COUNT', 100_000);
      expect(keys).toEqual([]);
    } finally {
      redis.disconnect();
    }
  });
});
