// The measurements of bench:engine, each on a flushed bench-only redis-server: a crawl row (seed from one process,
// then crawl with worker processes released together), the scrapy-redis row, and bytes per pending request.
import { runWorkers, startScrapy } from './fleet.mjs';
import { delta, settledMemory, snapshot, sumDeltas } from './counters.mjs';
import { requestsOf } from './workload.mjs';

let serial = 0;
const sum = (values) => values.reduce((a, b) => a + b, 0);

/** Per-request figures of one row from its add and crawl phase deltas. */
function perRequest(add, crawl, handled, rate) {
  const total = sumDeltas(add, crawl);
  return {
    handled,
    rate,
    cpuUs: total.cpuUs / handled,
    commands: total.commands / handled,
    scriptUs: total.scriptUs / handled,
    add: {
      cpuUs: add.cpuUs / handled,
      commands: add.commands / handled,
      calls: add.calls,
      scriptUs: add.scriptUs / handled,
    },
    crawl: {
      cpuUs: crawl.cpuUs / handled,
      commands: crawl.commands / handled,
      calls: crawl.calls,
      usec: crawl.usec,
      scriptUs: crawl.scriptUs / handled,
    },
  };
}

/**
 * Seeds `count` requests of `workload` from one process, then crawls them with `workers` processes.
 * @param ctx - redis, redisUrl, warmup
 * @param row - impl, workload, count, workers, concurrency (null: autoscaled), handlerMs, fingerprint, queueOptions
 */
export async function measureCrawl(ctx, row) {
  await ctx.redis.flushall();
  const queueName = `engine-${++serial}`;
  const base = {
    impl: row.impl,
    redisUrl: ctx.redisUrl,
    keyPrefix: 'engine',
    queueName,
    workload: row.workload,
    fingerprint: row.fingerprint,
    queueOptions: row.queueOptions ?? {},
  };
  const s0 = await snapshot(ctx.redis);
  const seed = await runWorkers([{ ...base, role: 'seed', count: row.count }]);
  const s1 = await snapshot(ctx.redis);
  let s2;
  const crawlCfg = {
    ...base,
    role: 'crawl',
    concurrency: row.concurrency,
    handlerMs: row.handlerMs ?? 0,
    warmup: ctx.warmup,
  };
  const fleet = await runWorkers(
    Array.from({ length: row.workers }, () => crawlCfg),
    { beforeGo: async () => (s2 = await snapshot(ctx.redis)) },
  );
  const s3 = await snapshot(ctx.redis);
  const handled = sum(fleet.results.map((r) => r.handled));
  const lastHandledAt = Math.max(...fleet.results.map((r) => r.lastHandledAt));
  return {
    ...perRequest(delta(s0, s1), delta(s2, s3), handled, handled / ((lastHandledAt - fleet.goAt) / 1000)),
    seedRate: row.count / (seed.results[0].seedMs / 1000),
    perWorker: fleet.results.map((r) => r.handled),
    workerCpuMsPerRequest: sum(fleet.results.map((r) => r.cpuMs)) / handled,
    finishMs: Math.max(...fleet.results.map((r) => r.crawlEnd)) - lastHandledAt,
  };
}

const jsonl = (requests) => requests.map((r) => JSON.stringify(r)).join('\n') + '\n';

/**
 * The real scrapy-redis scheduler on the same requests: one process adds (request_seen, push), then `workers`
 * processes pop until the queue is empty, released together.
 * @param ctx - redis, redisUrl, python, pythonPath
 */
export async function measureScrapy(ctx, { workload, count, workers }) {
  await ctx.redis.flushall();
  const name = `engine-scrapy-${++serial}`;
  const input = jsonl(await requestsOf(workload, count));
  const s0 = await snapshot(ctx.redis);
  const add = await startScrapy(ctx.python, ctx.pythonPath, ['add', ctx.redisUrl, name], input).result;
  const s1 = await snapshot(ctx.redis);
  const pops = Array.from({ length: workers }, () =>
    startScrapy(ctx.python, ctx.pythonPath, ['pop', ctx.redisUrl, name]),
  );
  await Promise.all(pops.map((p) => p.ready));
  const s2 = await snapshot(ctx.redis);
  const goAt = Date.now();
  for (const p of pops) p.go();
  const results = await Promise.all(pops.map((p) => p.result));
  const s3 = await snapshot(ctx.redis);
  const handled = sum(results.map((r) => r.popped));
  const lastAt = Math.max(...results.map((r) => r.lastAt));
  return {
    ...perRequest(delta(s0, s1), delta(s2, s3), handled, handled / ((lastAt - goAt) / 1000)),
    seen: add.seen,
    seedRate: count / add.seconds,
  };
}

/**
 * Redis bytes per pending request (used_memory delta / count) before and after seeding `count` requests into an empty server.
 * @param kind - 'normalized' (two query parameters out of order: uniqueKey differs from the URL), 'fingerprint'
 *   (withScrapyFingerprint: a 40-hex uniqueKey), 'plain' (uniqueKey equals the URL)
 * @param impl - a build's file URL, or 'scrapy-redis' (SADD of the fingerprint + ZADD of the pickled request)
 */
export async function measureBytes(ctx, { impl, kind, count }) {
  await ctx.redis.flushall();
  const workload = kind === 'plain' ? 'plain' : 'shaped';
  const before = await settledMemory(ctx.redis);
  if (impl === 'scrapy-redis') {
    await startScrapy(
      ctx.python,
      ctx.pythonPath,
      ['add', ctx.redisUrl, `engine-bytes-${++serial}`],
      jsonl(await requestsOf(workload, count)),
    ).result;
  } else {
    await runWorkers([
      {
        impl,
        redisUrl: ctx.redisUrl,
        keyPrefix: 'engine',
        queueName: `engine-bytes-${++serial}`,
        role: 'seed',
        workload,
        count,
        fingerprint: kind === 'fingerprint',
      },
    ]);
  }
  return ((await settledMemory(ctx.redis)) - before) / count;
}
