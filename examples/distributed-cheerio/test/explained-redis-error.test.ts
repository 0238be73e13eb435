// What the runner prints for a Redis error: a key of another type under the runner's own commands names the key and
// what to do (the packages type theirs as KeyTypeError, code KEY_TYPE, which passes through as it is).
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { KeyTypeError } from 'crawlee-redis-queue';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { explainedRedisError } from '../src/redis/explained-redis-error.js';

const redis = new Redis(inject('redisUrl'));
const key = `{crawlee:rq:wrongtype-${randomUUID().slice(0, 8)}}:meta`;
afterAll(async () => {
  await redis.del(key);
  redis.disconnect();
});

describe('explainedRedisError', () => {
  it('a WRONGTYPE reply of a raw command names the key and how to inspect it', async () => {
    await redis.set(key, 'not a hash');
    const error = await redis.hgetall(key).then(() => undefined, (e: unknown) => e);
    const explained = explainedRedisError(error);
    expect(explained?.message).toContain(`Redis key ${key} holds another type than the crawl expects (WRONGTYPE)`);
    expect(explained?.message).toContain(`redis-cli TYPE ${key}`);
  });

  it("the packages' KeyTypeError passes through as it is", () => {
    const typed = new KeyTypeError('the key is a string', key);
    expect(explainedRedisError(typed)).toBe(typed);
  });
});
