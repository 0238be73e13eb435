// A sharded queue (shards: 4) on one standalone Redis fed by a start-URL list: a worker process SIGKILLed between
// the pop and the add loses nothing; two consumer processes then handle every item exactly once (test/shard/feed-kill.ts).
import { Redis } from 'ioredis';
import { afterAll, expect, inject, it } from 'vitest';
import { feedKillScenario } from './feed-kill.js';

const redis = new Redis(inject('redisUrl'));
afterAll(() => redis.quit());

it('shards: 4, standalone: a consumer killed between the pop and the add loses nothing; 2 consumers handle every item once', async () => {
  await feedKillScenario(redis, { redisUrl: inject('redisUrl') }, 4, 2, 300);
  expect(true).toBe(true);
}, 300_000);
