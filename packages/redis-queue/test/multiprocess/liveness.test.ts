// Worker liveness with real processes and default options (Crawlee's 60 s lock): SIGKILL one of three Crawlee
// workers while it holds locks, and its locked requests are back and handled by the survivors within seconds (one
// liveness window after its last heartbeat), not after the lock time.
import { inject, it, expect } from 'vitest';
import type { Redis } from 'ioredis';
import { waitUntil, type WorkerHandle } from './fleet.js';
import { createScenario, DONE_STATS, MAX } from './scenario.js';
import { inFlight, summarize } from './worker-log.js';

it("SIGKILL with default options: the victim's locked requests are handled by the survivors within 10 s", { timeout: 150_000 }, async () => {
  // lockSecs undefined: the lock time Crawlee gives a queue passed to a crawler (max(handler timeout + 5, 60) s).
  const scenario = createScenario(inject('redisUrl'), { handlerMs: 30, concurrency: 3, lockSecs: undefined });
  const redis = scenario.admin.redis as Redis;
  const ownerKey = scenario.admin.keys.owner;
  let failed = true;
  try {
    const workers = await scenario.fleet.startTogether(3);
    let victim: WorkerHandle | undefined;
    await waitUntil(
      () => {
        if (summarize(workers.map((w) => w.log()), MAX).totalDone < MAX * 0.3) return false;
        const busiest = workers.reduce((a, b) => (inFlight(a.log()).length >= inFlight(b.log()).length ? a : b));
        if (inFlight(busiest.log()).length === 0) return false;
        victim = busiest;
        return true;
      },
      90_000,
      '30% done and a worker inside a handler',
      5,
    );
    const victimKey = victim!.log().clientKey!;
    victim!.child.kill('SIGKILL');
    const killedAt = Date.now();
    await victim!.exited;
    const owners = await redis.hgetall(ownerKey);
    const heldAtKill = Object.entries(owners).filter(([, owner]) => owner === victimKey).map(([id]) => id);
    expect(heldAtKill.length).toBeGreaterThan(0);

    // Every lock the victim held is gone from Redis (returned, then taken or handled by a survivor) within 10 s.
    let returnedAt = 0;
    while (Date.now() - killedAt < 20_000) {
      const now = await redis.hmget(ownerKey, ...heldAtKill);
      if (now.every((owner) => owner !== victimKey)) {
        returnedAt = Date.now();
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(returnedAt, 'the victim still held its locks 20 s after the kill').toBeGreaterThan(0);
    expect(returnedAt - killedAt).toBeLessThan(10_000);

    const survivors = workers.filter((w) => w !== victim);
    const codes = await Promise.race([
      Promise.all(survivors.map((w) => w.exited)),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`survivors did not finish\n${scenario.fleet.describe()}`)), 90_000)),
    ]);
    expect(codes, scenario.fleet.describe()).toEqual([0, 0]);
    const survivorLogs = survivors.map((w) => w.log());
    const summary = summarize([victim!.log(), ...survivorLogs], MAX);
    expect(summary.missing).toEqual([]);
    // The requests the victim was inside of were handled by a survivor within 10 s of the kill.
    const killedInFlight = inFlight(victim!.log());
    for (const i of killedInFlight) {
      const done = survivorLogs.flatMap((l) => l.dones.get(i) ?? []);
      expect(done.length, `request ${i}`).toBe(1);
      expect(done[0]! - killedAt, `request ${i}`).toBeLessThan(10_000);
    }
    expect(await scenario.admin.stats()).toEqual(DONE_STATS);
    console.log(`SIGKILL: ${heldAtKill.length} locks of the victim returned ${returnedAt - killedAt} ms after the kill; ${killedInFlight.length} in flight`);
    failed = false;
  } finally {
    await scenario.cleanup(failed);
  }
});
