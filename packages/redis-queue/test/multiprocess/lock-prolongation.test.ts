// Handlers longer than the lock time (2 s locks, 5-6 s handlers) on a three-worker crawl of 300 requests, with the
// lock prolonged from the handler through the queue client: no such request runs twice. Three long requests in a
// row (40, 41, 42) can fill all three slots of one worker, so the requests it has buffered (locked, not yet started)
// outlive their lock: other workers take them over, and the owner check of prolongRequestLock makes the first worker
// skip them.
//
// Request 150 is the control, in the same run: just as long, but nobody prolongs its lock. It must run more than
// once (another worker takes it when the lock expires), which shows the test catches a lock that is not held.
import { inject, it, expect } from 'vitest';
import { createScenario } from './scenario.js';
import { summarize } from './worker-log.js';

const LOCK_SECS = 2;
const MAX = 300;
const PROLONGED = { 40: 5000, 41: 5000, 42: 5000, 200: 6000 };
const CONTROL = 150;

it('handlers longer than the lock, lock prolonged: nothing processed twice (control without prolongation: twice)', { timeout: 150_000 }, async () => {
  const scenario = createScenario(inject('redisUrl'), {
    max: MAX,
    handlerMs: 5,
    concurrency: 3,
    lockSecs: LOCK_SECS,
    slow: { ...PROLONGED, [CONTROL]: 6000 },
    heartbeatMs: (LOCK_SECS * 1000) / 2,
    noHeartbeat: [CONTROL],
    // Lock-time semantics (the subject here): with liveness a live worker keeps even the control's lock.
    queueOptions: { liveness: false },
  });
  let failed = true;
  try {
    await scenario.fleet.startTogether(3);
    const codes = await scenario.fleet.waitAll(120_000);
    const logs = scenario.fleet.logs();
    expect(codes, scenario.fleet.describe()).toEqual([0, 0, 0]);
    expect(logs.flatMap((l) => l.errors)).toEqual([]);
    const summary = summarize(logs, MAX);
    expect(summary.missing).toEqual([]);
    // Only the control ran more than once.
    expect(summary.startedTwice).toEqual([CONTROL]);
    // The long handlers did outlive the lock, and every prolongation kept it.
    for (const [i, ms] of Object.entries(PROLONGED)) {
      const beats = logs.flatMap((l) => l.beats.get(Number(i)) ?? []);
      expect(beats.length, `prolongations of request ${i}`).toBeGreaterThanOrEqual(Math.floor(ms / 1000 / LOCK_SECS));
      expect(beats, `prolongations of request ${i}`).not.toContain('lost');
    }
    expect(await scenario.admin.stats()).toEqual({ total: MAX, pending: 0, locked: 0, handled: MAX, deadLetters: 0 });
    failed = false;
  } finally {
    await scenario.cleanup(failed);
  }
});
