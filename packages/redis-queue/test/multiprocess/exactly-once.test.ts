// Three crawler processes on one queue: every request handled exactly once, and nobody finishes early.
//
// The graph starts from request 1 alone, so at the start two of the three workers find nothing available while the
// first holds the only request. Without `queueHasLockedRequests` (or with a client that reports it wrongly) they
// would finish at once, long before the last request is done; the finish-time checks catch that.
import { inject, it, expect } from 'vitest';
import { createScenario, DONE_STATS, MAX } from './scenario.js';
import { doneTotal, summarize } from './worker-log.js';

it('three workers handle all 1000 requests exactly once and finish together', { timeout: 150_000 }, async () => {
  const scenario = createScenario(inject('redisUrl'), { handlerMs: 10, concurrency: 3 });
  let failed = true;
  try {
    await scenario.fleet.startTogether(3);
    const releasedAt = Date.now();
    const codes = await scenario.fleet.waitAll(120_000);
    const logs = scenario.fleet.logs();
    expect(codes, scenario.fleet.describe()).toEqual([0, 0, 0]);
    expect(logs.flatMap((l) => l.errors)).toEqual([]);

    const summary = summarize(logs, MAX);
    expect(summary.missing).toEqual([]);
    expect(summary.startedTwice).toEqual([]);
    expect(summary.totalDone).toBe(MAX);
    expect(logs.flatMap((l) => l.failed)).toEqual([]);
    // Each crawler's own count agrees with what it recorded.
    for (const log of logs) expect(log.requestsFinished).toBe(doneTotal(log));
    // All three did part of the work (they were released at the same moment).
    for (const log of logs) expect(doneTotal(log)).toBeGreaterThan(0);

    // No worker finished while another still held work...
    const finishes = logs.map((l) => l.finishedAt!);
    for (const finishedAt of finishes) expect(finishedAt).toBeGreaterThanOrEqual(summary.lastDoneAt);
    // ...and they finish within a few seconds of each other (idle workers poll every 0.5 s).
    expect(Math.max(...finishes) - Math.min(...finishes)).toBeLessThan(10_000);

    expect(await scenario.admin.stats()).toEqual(DONE_STATS);
    console.log(
      `exactly once: crawl took ${summary.lastDoneAt - releasedAt} ms; per worker ${logs.map(doneTotal).join(' / ')} requests; ` +
        `finishes ${finishes.map((f) => f - summary.lastDoneAt).join(', ')} ms after the last request was done`,
    );
    failed = false;
  } finally {
    await scenario.cleanup(failed);
  }
});
