// The two measurements of the benchmark: Crawlee's MemoryStorage queue, and this package's Redis queue with one or
// more worker processes on a bench-only redis-server.
import { runFleet, runOne } from './processes.mjs';
import { callsDelta, commandCalls, serverCounters } from './redis-info.mjs';

const sum = (values) => values.reduce((a, b) => a + b, 0);

/** Where the crawl's wall time went, per request, summed over the worker processes (ms per request per method). */
function msPerRequest(results, handled) {
  const total = {};
  for (const r of results) {
    for (const [name, t] of Object.entries(r.clientTimings ?? {})) {
      total[name] ??= { calls: 0, ms: 0 };
      total[name].calls += t.calls;
      total[name].ms += t.ms;
    }
  }
  return Object.fromEntries(
    Object.entries(total)
      .filter(([, t]) => t.calls > 0)
      .map(([name, t]) => [name, { callsPerRequest: t.calls / handled, msPerCall: t.ms / t.calls }]),
  );
}

/** Seeds and crawls `n` requests on a MemoryStorage queue in one process. */
export async function measureMemory(n, { concurrency, memoryCapSecs, warmup }) {
  const r = await runOne(
    { backend: 'memory', seed: n, crawl: true, queueName: `bench-${n}`, concurrency, expect: n, warmup },
    { finishGraceSecs: 10, hardLimitSecs: memoryCapSecs + 600, capSecs: memoryCapSecs },
  );
  return {
    handled: r.handled,
    rate: r.handled / ((r.lastHandledAt - r.goAt) / 1000),
    seedRate: n / (r.seedMs / 1000),
    capped: Boolean(r.capped),
    finishLatencyMs: r.finishStalled || r.capped ? undefined : r.crawlEnd - r.lastHandledAt,
    finishStalled: Boolean(r.finishStalled),
    workerCpuMsPerRequest: r.cpuMs / r.handled,
    client: msPerRequest([r], r.handled),
  };
}

/**
 * Seeds `n` requests into a fresh Redis queue from one process, then crawls it with `workers` processes released
 * together; reads the server's counters around both phases, then drops the queue.
 */
export async function measureRedis(n, workers, { concurrency, redis, redisUrl, keyPrefix, admin, queueOptions, warmup }) {
  const queueName = `bench-${n}-${workers}w`;
  const base = await serverCounters(redis);
  const seed = await runOne({ backend: 'redis', seed: n, crawl: false, queueName, redisUrl, keyPrefix, concurrency });
  const afterSeed = await serverCounters(redis);
  // Read again once the workers are warmed up: their warm-up queues' commands and CPU are not the crawl's.
  let atGo;
  let callsBefore;
  const fleet = await runFleet(
    workers,
    { backend: 'redis', seed: 0, crawl: true, queueName, redisUrl, keyPrefix, queueOptions, concurrency, warmup },
    {
      beforeGo: async () => {
        atGo = await serverCounters(redis);
        callsBefore = await commandCalls(redis);
      },
    },
  );
  const afterCrawl = await serverCounters(redis);
  const calls = callsDelta(callsBefore, await commandCalls(redis));
  const stats = await admin(queueName).stats();
  await admin(queueName).drop();

  const handled = sum(fleet.results.map((r) => r.handled));
  const lastHandledAt = Math.max(...fleet.results.map((r) => r.lastHandledAt));
  const crawlEnd = Math.max(...fleet.results.map((r) => r.crawlEnd));
  return {
    handled,
    queueHandled: stats.handled,
    perWorker: fleet.results.map((r) => r.handled),
    rate: handled / ((lastHandledAt - fleet.goAt) / 1000),
    seedRate: n / (seed.seedMs / 1000),
    seedRoundTripsPerRequest: seed.seedRoundTrips / n,
    finishLatencyMs: crawlEnd - lastHandledAt,
    roundTripsPerRequest: sum(fleet.results.map((r) => r.roundTrips)) / handled,
    serverCommandsPerRequest: (afterCrawl.commands - atGo.commands) / handled,
    redisCpuUsPerRequest: ((afterCrawl.cpuSeconds - atGo.cpuSeconds) * 1e6) / handled,
    workerCpuMsPerRequest: sum(fleet.results.map((r) => r.cpuMs)) / handled,
    memoryPerPendingBytes: (afterSeed.usedMemory - base.usedMemory) / n,
    memoryPerHandledBytes: (afterCrawl.usedMemory - base.usedMemory) / n,
    commandCallsPerRequest: Object.fromEntries(Object.entries(calls).map(([name, c]) => [name, c / handled])),
    client: msPerRequest(fleet.results, handled),
  };
}

/**
 * The scaling anchor: `workers` processes that share nothing but the machine and the Redis server, each crawling its
 * own Redis queue of n / workers requests, released together. What two processes of this crawler can reach on this
 * machine when no request is shared; the shared queue's "2 workers / 1" is read against it.
 */
export async function measureIndependent(n, workers, { concurrency, redisUrl, keyPrefix, admin, queueOptions, warmup }) {
  const names = Array.from({ length: workers }, (_, i) => `bench-${n}-independent-${i}`);
  const share = Math.floor(n / workers);
  for (const queueName of names) {
    await runOne({ backend: 'redis', seed: share, crawl: false, queueName, redisUrl, keyPrefix, concurrency });
  }
  const fleet = await runFleet(workers, (i) => ({ backend: 'redis', seed: 0, crawl: true, queueName: names[i], redisUrl, keyPrefix, queueOptions, concurrency, warmup }));
  for (const queueName of names) await admin(queueName).drop();
  const handled = sum(fleet.results.map((r) => r.handled));
  const lastHandledAt = Math.max(...fleet.results.map((r) => r.lastHandledAt));
  return {
    handled,
    rate: handled / ((lastHandledAt - fleet.goAt) / 1000),
    workerCpuMsPerRequest: sum(fleet.results.map((r) => r.cpuMs)) / handled,
  };
}
