// A request that kills the worker holding it: request 5's handler SIGKILLs its own process, as an OOM or
// a native crash would. Each time its lock expires it would come back and take down the next worker. With
// maxStalls 3 the third expiry moves it to the dead letters with the reason and the count; the requests started
// beside it come back and are handled; the crawl completes with exact counters; requeueing the letter resets the
// stall count.
import { storedFields } from '../../src/core/record-format.js';
import { inject, it, expect } from 'vitest';
import type { Redis } from 'ioredis';
import { requestIdOf } from '../../src/internal.js';
import { waitUntil } from './fleet.js';
import { createScenario } from './scenario.js';
import { summarize } from './worker-log.js';

const MAX = 150;
const POISON = 5;
const MAX_STALLS = 3;

it('a request that SIGKILLs its worker is dead-lettered after maxStalls lock expiries; the rest of the crawl completes', { timeout: 150_000 }, async () => {
  const scenario = createScenario(inject('redisUrl'), {
    max: MAX,
    handlerMs: 5,
    concurrency: 3,
    lockSecs: 1,
    killOn: [POISON],
    queueOptions: { maxStalls: MAX_STALLS },
  });
  const redis = scenario.admin.redis as Redis;
  let failed = true;
  try {
    await scenario.fleet.startTogether(2);
    // Keep two workers alive: each one the poison kills is replaced (at most one more than maxStalls needs).
    let replaced = 0;
    await waitUntil(
      () => {
        const alive = scenario.fleet.workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
        const killed = scenario.fleet.workers.filter((w) => w.child.signalCode === 'SIGKILL').length;
        if (killed > replaced && replaced < MAX_STALLS + 1) {
          replaced++;
          scenario.fleet.start(1);
          return false;
        }
        return alive.length === 0;
      },
      120_000,
      'the fleet to finish',
      50,
    );
    const codes = await scenario.fleet.waitAll(10_000);
    const logs = scenario.fleet.logs();
    expect(codes.filter((c) => c === 'SIGKILL'), scenario.fleet.describe()).toHaveLength(MAX_STALLS);
    expect(codes.filter((c) => c !== 'SIGKILL').every((c) => c === 0), scenario.fleet.describe()).toBe(true);
    expect(logs.flatMap((l) => l.errors)).toEqual([]);
    const summary = summarize(logs, MAX);
    expect(summary.missing).toEqual([POISON]);
    expect(logs.flatMap((l) => l.failed)).toEqual([]);

    const id = requestIdOf(`http://localhost/r/${POISON}`);
    const letters = await scenario.admin.listDeadLetters();
    expect(letters.map((l) => l.id)).toEqual([id]);
    expect(letters[0]).toMatchObject({ source: 'queue', stalls: MAX_STALLS });
    expect(letters[0]!.reason).toMatch(/lock expired 3 times/);
    expect(storedFields(letters[0]!.raw.toString())).toMatchObject({ url: `http://localhost/r/${POISON}`, userData: { i: POISON } });
    expect(await scenario.admin.stats()).toEqual({ total: MAX - 1, pending: 0, locked: 0, handled: MAX - 1, deadLetters: 1 });
    expect(await redis.hexists(scenario.admin.keys.stalls, id)).toBe(0);

    // Requeued (say, after a fix): pending again, with no stall counted.
    expect(await scenario.admin.requeueDeadLetters()).toEqual({ requeued: 1, skipped: 0 });
    expect(await scenario.admin.stats()).toEqual({ total: MAX, pending: 1, locked: 0, handled: MAX - 1, deadLetters: 0 });
    expect(await redis.hexists(scenario.admin.keys.stalls, id)).toBe(0);
    failed = false;
  } finally {
    await scenario.cleanup(failed);
  }
});
