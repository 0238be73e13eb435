// Handlers longer than the lock time (2 s locks, 5-6 s handlers) on a three-worker crawl of 300 requests, with the lock prolonged
// from the handler through the queue client: no request runs twice. Three long requests in a row (40, 41, 42) can
// fill all three slots of one worker, so the requests it has buffered (locked, not yet started) outlive their lock:
// other workers take them over, and the owner check of prolongRequestLock makes the first worker skip them.
//
// The control run is the same crawl on a small graph without the prolongation: the long request does run twice,
// which shows the first test would catch a lock that is not held.
import { inject, it, expect } from 'vitest';
import { createScenario } from './scenario.js';
import { summarize } from './worker-log.js';

const LOCK_SECS = 2;

it('handlers longer than the lock, lock prolonged: nothing processed twice', { timeout: 150_000 }, async () => {
  const max = 300;
  const slow = { 1: 5000, 40: 5000, 41: 5000, 42: 5000, 150: 6000 };
  const scenario = createScenario(inject('redisUrl'), {
    max,
    handlerMs: 5,
    concurrency: 3,
    lockSecs: LOCK_SECS,
    slow,
    heartbeatMs: (LOCK_SECS * 1000) / 2,
  });
  let failed = true;
  try {
    await scenario.fleet.startTogether(3);
    const codes = await scenario.fleet.waitAll(120_000);
    const logs = scenario.fleet.logs();
    expect(codes, scenario.fleet.describe()).toEqual([0, 0, 0]);
    expect(logs.flatMap((l) => l.errors)).toEqual([]);
    const summary = summarize(logs, max);
    expect(summary.missing).toEqual([]);
    expect(summary.startedTwice).toEqual([]);
    expect(summary.totalDone).toBe(max);
    // The long handlers did outlive the lock, and every prolongation kept it.
    for (const i of Object.keys(slow).map(Number)) {
      const beats = logs.flatMap((l) => l.beats.get(i) ?? []);
      expect(beats.length, `prolongations of request ${i}`).toBeGreaterThanOrEqual(Math.floor(slow[i as keyof typeof slow] / 1000 / LOCK_SECS));
      expect(beats, `prolongations of request ${i}`).not.toContain('lost');
    }
    expect(await scenario.admin.stats()).toEqual({ total: max, pending: 0, locked: 0, handled: max, deadLetters: 0 });
    failed = false;
  } finally {
    await scenario.cleanup(failed);
  }
});

it('control: the same long handler without prolongation runs twice', { timeout: 90_000 }, async () => {
  const max = 20;
  const scenario = createScenario(inject('redisUrl'), { max, handlerMs: 5, concurrency: 2, lockSecs: LOCK_SECS, slow: { 1: 7000 } });
  let failed = true;
  try {
    await scenario.fleet.startTogether(2);
    const codes = await scenario.fleet.waitAll(60_000);
    expect(codes, scenario.fleet.describe()).toEqual([0, 0]);
    const summary = summarize(scenario.fleet.logs(), max);
    expect(summary.missing).toEqual([]);
    // Request 1's lock expired while its handler ran, and the other worker took it.
    expect(summary.startedTwice).toContain(1);
    failed = false;
  } finally {
    await scenario.cleanup(failed);
  }
});
