// Worker stats with real worker processes: two crawl one queue and publish their records; one is SIGKILLed and
// shows as dead once its TTL passed, while the other stays alive.
import { expect, inject, it } from 'vitest';
import { waitUntil } from './fleet.js';
import { createScenario } from './scenario.js';
import type { WorkerInfo } from '../../src/index.js';

const TTL_SECS = 1.5;

it('workers publish stats; a SIGKILLed one shows as dead after its TTL', { timeout: 120_000 }, async () => {
  const scenario = createScenario(inject('redisUrl'), {
    handlerMs: 40,
    concurrency: 2,
    max: 400,
    lockSecs: 3,
    queueOptions: { workerStats: { intervalSecs: 0.25, ttlSecs: TTL_SECS } },
  });
  let failed = true;
  try {
    const workers = await scenario.fleet.startTogether(2);
    let seen: WorkerInfo[] = [];
    const poll = async (predicate: (w: WorkerInfo[]) => boolean, what: string) => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        seen = await scenario.admin.workers();
        if (predicate(seen)) return;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(seen)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    await poll((w) => w.length === 2 && w.every((x) => x.state === 'alive' && x.handled > 0), 'two alive workers with handled requests');
    const pids = workers.map((w) => w.child.pid);
    expect(seen.map((w) => w.pid).sort()).toEqual([...pids].sort());
    expect(seen.every((w) => w.rate >= 0 && w.startedAt !== undefined)).toBe(true);

    const victim = workers[0]!;
    victim.child.kill('SIGKILL');
    const killedAt = Date.now();
    await victim.exited;
    const victimId = seen.find((w) => w.pid === victim.child.pid)!.id;
    await poll((w) => w.find((x) => x.id === victimId)?.state === 'dead', 'the killed worker to show as dead');
    // Not before its TTL: silence shorter than the TTL is still "alive".
    expect(Date.now() - killedAt).toBeGreaterThan(TTL_SECS * 1000 - 300);
    expect(seen.find((x) => x.id !== victimId)).toMatchObject({ state: 'alive', pid: workers[1]!.child.pid });

    await waitUntil(() => workers[1]!.child.exitCode !== null, 90_000, 'the survivor to finish the crawl');
    expect(await scenario.admin.stats()).toMatchObject({ handled: 400, pending: 0 });
    failed = false;
  } finally {
    await scenario.cleanup(failed);
  }
});
