// Poison entries written straight into the queue's Redis structures (as a foreign writer, a crash mid-write or an
// old version would leave them): truncated JSON, an unknown format, an empty string, and Python pickle bytes (not
// UTF-8; scrapy-redis's default serializer). They end in the dead letters with their exact bytes and a reason, every
// valid request is handled once, and no worker crashes or stops early.
import { inject, it, expect } from 'vitest';
import type { Redis } from 'ioredis';
import { openRedisRequestQueue } from '../../src/index.js';
import { createScenario } from './scenario.js';
import { summarize } from './worker-log.js';

const POISON: Record<string, Buffer> = {
  'poison-truncated-json': Buffer.from('{"url":"https://exa'),
  'poison-unknown-format': Buffer.from('{"v":99,"payload":"AAECAw=="}'),
  'poison-empty-string': Buffer.alloc(0),
  // Not UTF-8: pickle protocol 5 of {'url': 'https://example.com'}, what a scrapy-redis queue holds (FINDINGS.md F1).
  // Valid JSON, not a valid request: Crawlee's Request would throw, or the crawl would crash later.
  'poison-user-data-string': Buffer.from('{"url":"http://localhost/r/x1","uniqueKey":"x1","userData":"i=1"}'),
  'poison-retry-count-string': Buffer.from('{"url":"http://localhost/r/x2","uniqueKey":"x2","retryCount":"3"}'),
  'poison-ftp-url': Buffer.from('{"url":"ftp://localhost/r/x3","uniqueKey":"x3"}'),
  'poison-pickle-bytes': Buffer.from('80059520000000000000007d948c0375726c948c1368747470733a2f2f6578616d706c652e636f6d94732e', 'hex'),
};

/** Appends one raw entry at the tail of the queue, with the counters a real add would move. */
const WRITE_RAW_ENTRY = `
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
local n = redis.call('RPUSH', KEYS[3], ARGV[1])
redis.call('HINCRBY', KEYS[1], 'total', 1)
redis.call('HINCRBY', KEYS[1], 'pending', 1)
return n`;

async function poisonScenario(poison: Record<string, Buffer>, max: number, timeoutMs: number): Promise<void> {
  const scenario = createScenario(inject('redisUrl'), { max, handlerMs: 5, concurrency: 3, lockSecs: 2 });
  const redis = scenario.admin.redis as Redis;
  const { meta, data, fifo } = scenario.admin.keys;
  let failed = true;
  try {
    // The queue starts as valid request 1, the poison entries, valid request 2.
    const queue = await openRedisRequestQueue(scenario.config.queueName, { redis, keyPrefix: scenario.config.keyPrefix });
    await queue.addRequest({ url: 'http://localhost/r/1', userData: { i: 1 } });
    for (const [id, raw] of Object.entries(poison)) await redis.eval(WRITE_RAW_ENTRY, 3, meta, data, fifo, id, raw);
    await queue.addRequest({ url: 'http://localhost/r/2', userData: { i: 2 } });

    await scenario.fleet.startTogether(3);
    let codes;
    try {
      codes = await scenario.fleet.waitAll(timeoutMs);
    } catch (error) {
      const letters = (await scenario.admin.listDeadLetters()).map((l) => l.id);
      throw new Error(
        `${(error as Error).message.split('\n')[0]}; the poison never left the queue: queue ${JSON.stringify(await scenario.admin.stats())}, ` +
          `dead letters ${JSON.stringify(letters)}, owners of locks ${JSON.stringify(await redis.hgetall(scenario.admin.keys.owner))}`,
        { cause: error },
      );
    }
    const logs = scenario.fleet.logs();
    expect(codes, scenario.fleet.describe()).toEqual([0, 0, 0]);
    expect(logs.flatMap((l) => l.errors)).toEqual([]);
    const summary = summarize(logs, max);
    expect(summary.missing).toEqual([]);
    expect(summary.startedTwice).toEqual([]);
    expect(logs.flatMap((l) => l.failed)).toEqual([]);

    const letters = await scenario.admin.listDeadLetters();
    expect(letters.map((l) => l.id).sort()).toEqual(Object.keys(poison).sort());
    for (const letter of letters) {
      expect(letter.source).toBe('queue');
      expect(letter.reason.length, letter.id).toBeGreaterThan(0);
      // The exact bytes, so an operator can repair and requeue them.
      expect(Buffer.compare(letter.raw, poison[letter.id]!), letter.id).toBe(0);
    }
    const deadLetters = Object.keys(poison).length;
    expect(await scenario.admin.stats()).toEqual({ total: max, pending: 0, locked: 0, handled: max, deadLetters });
    failed = false;
  } finally {
    await scenario.cleanup(failed);
  }
}

it('truncated JSON, unknown format, empty string, pickle bytes: dead-lettered, all valid work done, no worker crashes', { timeout: 120_000 }, () =>
  poisonScenario(POISON, 200, 90_000),
);
