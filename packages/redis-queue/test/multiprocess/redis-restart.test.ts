// Restart Redis (append-only file on, fsync always) in the middle of a two-worker crawl: the workers wait for it,
// reconnect, and finish the crawl; nothing is lost.
import { inject, it, expect } from 'vitest';
import { startRedisServer, type RedisServerHandle } from '@crawlee-distributed/test-utils';
import { waitUntil } from './fleet.js';
import { createScenario, DONE_STATS, MAX } from './scenario.js';
import { summarize } from './worker-log.js';

it('Redis restarted mid-run: all 1000 handled, every worker reconnects and keeps working', { timeout: 150_000 }, async () => {
  // A server of this test's own: the shared one must never be restarted.
  const server: RedisServerHandle = await startRedisServer({ appendOnly: true });
  void inject('redisUrl');
  const scenario = createScenario(server.url, { handlerMs: 20, concurrency: 3, lockSecs: 10 });
  let failed = true;
  try {
    await scenario.fleet.startTogether(2);
    const threshold = Math.floor(MAX * (0.2 + Math.random() * 0.3));
    await waitUntil(() => summarize(scenario.fleet.logs(), MAX).totalDone >= threshold, 90_000, `${threshold} requests done`, 5);
    const restartStart = Date.now();
    await server.restart();
    const restartEnd = Date.now();
    const doneBeforeRestart = summarize(scenario.fleet.logs(), MAX).totalDone;

    const codes = await scenario.fleet.waitAll(120_000);
    const logs = scenario.fleet.logs();
    expect(codes, scenario.fleet.describe()).toEqual([0, 0]);
    expect(logs.flatMap((l) => l.errors)).toEqual([]);
    // The restart happened mid-run, with work left.
    expect(doneBeforeRestart).toBeLessThan(MAX);

    const summary = summarize(logs, MAX);
    expect(summary.missing).toEqual([]);
    expect(logs.flatMap((l) => l.failed)).toEqual([]);
    // Every worker reconnected and finished requests after the server was back.
    for (const log of logs) {
      const after = [...log.dones.values()].flat().filter((ts) => ts > restartEnd);
      expect(after.length, scenario.fleet.describe()).toBeGreaterThan(0);
    }
    expect(await scenario.admin.stats()).toEqual(DONE_STATS);
    console.log(
      `Redis restart after ${doneBeforeRestart} done took ${restartEnd - restartStart} ms; ` +
        `${summary.startedTwice.length} requests processed twice (${summary.startedTwice.join(', ')}); ` +
        `crawl finished ${Math.max(...logs.map((l) => l.finishedAt!)) - restartEnd} ms after the restart`,
    );
    failed = false;
  } finally {
    await scenario.cleanup(failed);
    await server.destroy();
  }
});
