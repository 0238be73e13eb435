// One measured queue, in a process of its own (fresh heap, the implementation chosen per run). Public API only:
// Crawlee's RequestQueue over this package's openRedisRequestQueue, or over Crawlee's MemoryStorage.
//
// argv[2] is JSON:
//   backend: 'redis' | 'memory'
//   impl: module to import the Redis queue from (a package name or a file URL of a built dist/index.js)
//   redisUrl, keyPrefix, name, queueOptions (extra openRedisRequestQueue options, e.g. { handledRequests: 'key' })
//   phase: 'pending'  add up to each checkpoint; at each: memory, then a lock-and-handle window of `window` requests
//          'handled'  add `n` requests that are already handled (handledAt set) and `pendingExtra` pending ones
//          'probe'    add `probes` requests never seen on that queue; count those reported wasAlreadyHandled
//   n, checkpoints, window, addWindow, concurrency, samples (MEMORY USAGE samples for the key breakdown),
//   warmup (requests added and handled on a queue of their own before the measured queue opens; 0 = none)
// Prints one JSON line on stdout: the result.
import console from 'node:console';
import { createHash } from 'node:crypto';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Configuration, MemoryStorage, RequestQueue, log } from 'crawlee';
import { Redis } from 'ioredis';
import { serverCounters } from '../redis-info.mjs';
import { keyBreakdown, memoryInfo, usedMemory } from './redis-memory.mjs';
import { requestOf } from './workload.mjs';

const cfg = JSON.parse(process.argv[2]);
log.setLevel(log.LEVELS.WARNING);
const config = new Configuration({ persistStorage: false, purgeOnStart: false });
const ADD_BATCH = 1000;

const storageClient = cfg.backend === 'memory' ? new MemoryStorage({ persistStorage: false, writeMetadata: false }) : undefined;

/** @param name - queue name @param expected - a 'bits' filter sized for this many instead (the warm-up queue) */
async function openQueue(name, expected) {
  if (storageClient) return RequestQueue.open(name, { storageClient, config });
  const { openRedisRequestQueue } = await import(cfg.impl);
  const options = { ...cfg.queueOptions };
  if (expected !== undefined && options.handledBloom) options.handledBloom = { ...options.handledBloom, expectedRequests: expected };
  return openRedisRequestQueue(name, { redis: cfg.redisUrl, keyPrefix: cfg.keyPrefix, lockSecs: 600, config, ...options });
}

const redis = cfg.backend === 'redis' ? new Redis(cfg.redisUrl) : undefined;

/** The 'key' index buckets (`ix:<b>`) and 'bits' blocks (`hb:<i>`) as one row each (count, bytes, encodings):
 * tens of thousands of buckets would make the result line megabytes long. @param rows - keyBreakdown rows */
function groupBuckets(rows) {
  const out = [];
  const groups = new Map();
  for (const row of rows) {
    const m = /^(.*:(ix|hb):)\d+$/.exec(row.key);
    if (!m) {
      out.push(row);
      continue;
    }
    const g = groups.get(m[1]) ?? { key: `${m[1]}*`, type: row.type, encoding: {}, keys: 0, length: 0, bytes: 0 };
    g.keys++;
    g.length += row.length;
    g.bytes += row.bytes;
    g.encoding[row.encoding] = (g.encoding[row.encoding] ?? 0) + 1;
    groups.set(m[1], g);
  }
  return [...out, ...groups.values()];
}

/** Bytes the backend holds: Redis used_memory, or this process's heap after a full GC (MemoryStorage). */
async function bytesNow() {
  if (redis) return usedMemory(redis);
  for (let i = 0; i < 3; i++) {
    globalThis.gc?.();
    await sleep(50);
  }
  return process.memoryUsage().heapUsed;
}

/**
 * Runs `fn` and returns its wall seconds with where the time went: the Redis server's CPU seconds (INFO cpu, user +
 * system) and this process's CPU seconds (Crawlee's RequestQueue, our client, ioredis, GC) over the same span. When
 * the rate falls as the queue grows, these say which side grew.
 */
let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ['gc'] });

async function accounted(fn) {
  const g0 = gcMs;
  const r0 = redis ? await serverCounters(redis) : undefined;
  const c0 = process.cpuUsage();
  const secs = await fn();
  const c1 = process.cpuUsage(c0);
  await sleep(0); // the observer's entries of the span arrive on a later turn
  const gcSecs = (gcMs - g0) / 1000;
  const r1 = redis ? await serverCounters(redis) : undefined;
  return { secs, nodeCpuSecs: (c1.user + c1.system) / 1e6, gcSecs, redisCpuSecs: r1 ? r1.cpuSeconds - r0.cpuSeconds : undefined };
}

/**
 * The machine-speed control: milliseconds for a fixed piece of CPU work shaped like the client's side of an add
 * (build 5,000 of the workload's Requests, JSON round trip, SHA-256), none of which depends on the queue's size. Taken
 * just before each checkpoint's windows: when it grows, the machine got slower (another process on the same physical
 * core, a frequency change), and a rate that fell by the same factor did not fall because the queue grew.
 */
function calibrationMs() {
  const t0 = performance.now();
  let sink = 0;
  for (let i = 0; i < 5000; i++) {
    const request = requestOf(1e9 + i);
    sink += createHash('sha256').update(JSON.stringify(JSON.parse(JSON.stringify(request)))).digest()[0];
  }
  if (sink < 0) console.error(sink); // keeps the loop from being optimised away
  return performance.now() - t0;
}

/** Adds requests [from, to) through Crawlee's RequestQueue.addRequests, 1,000 per call; returns the seconds taken. */
async function addRange(queue, from, to, extra) {
  const t0 = performance.now();
  for (let i = from; i < to; i += ADD_BATCH) {
    const batch = [];
    for (let j = i; j < Math.min(to, i + ADD_BATCH); j++) {
      const request = requestOf(j);
      if (extra) Object.assign(request, extra);
      batch.push(request);
    }
    await queue.addRequests(batch);
  }
  return (performance.now() - t0) / 1000;
}

/** `count` requests fetched (listAndLockHead under Crawlee's RequestQueue) and marked handled by `concurrency` loops,
 * as a crawler's task pool does. Returns seconds. */
async function lockAndHandle(queue, count) {
  if (count === 0) return 0;
  let left = count;
  const t0 = performance.now();
  let misses = 0;
  const loop = async () => {
    while (left > 0) {
      left--;
      const request = await queue.fetchNextRequest();
      if (!request) {
        // Crawlee's RequestQueue answers null while another call refills its local head; a crawler polls again.
        left++;
        if (++misses > 100_000) throw new Error('queue ran dry during a lock-and-handle window');
        await sleep(1);
        continue;
      }
      await queue.markRequestHandled(request);
    }
  };
  await Promise.all(Array.from({ length: cfg.concurrency }, loop));
  return (performance.now() - t0) / 1000;
}

// Warm-up on a queue of its own (JIT, connection, Crawlee's caches), so the first checkpoint's rates are not a cold
// start's; its memory is part of the baseline.
if (cfg.warmup > 0) {
  const warm = await openQueue(`${cfg.name}-warmup`, cfg.warmup);
  await addRange(warm, 0, cfg.warmup);
  await lockAndHandle(warm, cfg.warmup);
}
// The handled phase's baseline comes before the measured queue opens: a 'bits' queue allocates its whole filter at
// creation, and that filter is part of what a handled request costs. The pending phase's comes after: the filter is
// not what a pending request costs (counted there, a 5M-sized filter would add 180 B to each of the first 100k
// pending requests). A probe or restart reopens the queue: nothing allocated.
const beforeOpen = await bytesNow();
const queue = await openQueue(cfg.name);
const base = cfg.phase === 'pending' ? await bytesNow() : beforeOpen;
const out = { backend: cfg.backend, phase: cfg.phase, base, openBytes: base - beforeOpen, checkpoints: [] };

if (cfg.phase === 'pending') {
  let added = 0;
  let windowDelta = 0; // memory change of the lock-and-handle windows (pending -> handled conversions)
  let handled = 0;
  for (const c of cfg.checkpoints) {
    const tail = Math.min(cfg.addWindow, c - added);
    if (c - tail > added) await addRange(queue, added, c - tail);
    const calibration = [calibrationMs(), calibrationMs(), calibrationMs()].sort((x, y) => x - y)[1];
    const add = await accounted(() => addRange(queue, c - tail, c));
    const addSecs = add.secs;
    added = c;
    const mem = await bytesNow();
    const handle = await accounted(() => lockAndHandle(queue, cfg.window));
    const handleSecs = handle.secs;
    handled += cfg.window;
    const memAfter = await bytesNow();
    const perPending = (mem - base - windowDelta) / added;
    windowDelta += memAfter - mem;
    const point = {
      inQueue: c,
      addRate: tail / addSecs,
      lockAndHandleRate: cfg.window / handleSecs,
      bytes: mem - base,
      perPending,
      perHandledFromWindow: perPending + (memAfter - mem) / cfg.window,
      handledSoFar: handled,
      nodeHeapBytes: process.memoryUsage().heapUsed,
      calibrationMs: calibration,
      // µs per request, by side: where the time of the add and lock-and-handle windows went.
      addUs: { wall: (add.secs / tail) * 1e6, node: (add.nodeCpuSecs / tail) * 1e6, gc: (add.gcSecs / tail) * 1e6, redis: add.redisCpuSecs === undefined ? undefined : (add.redisCpuSecs / tail) * 1e6 },
      handleUs: { wall: (handle.secs / cfg.window) * 1e6, node: (handle.nodeCpuSecs / cfg.window) * 1e6, gc: (handle.gcSecs / cfg.window) * 1e6, redis: handle.redisCpuSecs === undefined ? undefined : (handle.redisCpuSecs / cfg.window) * 1e6 },
    };
    out.checkpoints.push(point);
    console.error(`[${cfg.backend}${cfg.label ? ' ' + cfg.label : ''}] ${c}: add ${Math.round(point.addRate)}/s, lock+handle ${Math.round(point.lockAndHandleRate)}/s, ${point.perPending.toFixed(1)} B/pending, heap ${Math.round(point.nodeHeapBytes / 2 ** 20)} MiB, control ${point.calibrationMs.toFixed(0)} ms; µs/request add node ${point.addUs.node.toFixed(1)} (gc ${point.addUs.gc.toFixed(1)}) redis ${point.addUs.redis?.toFixed(1)}, lock+handle node ${point.handleUs.node.toFixed(1)} (gc ${point.handleUs.gc.toFixed(1)}) redis ${point.handleUs.redis?.toFixed(1)}`);
  }
} else if (cfg.phase === 'probe') {
  // Requests never added before, on the queue that holds `n` handled ones: each reported as already handled is a
  // false positive of the handled store (0 in the exact modes; about the Bloom filter's rate in 'bits').
  let falsePositives = 0;
  const from = cfg.n + cfg.pendingExtra;
  for (let i = from; i < from + cfg.probes; i += ADD_BATCH) {
    const batch = [];
    for (let j = i; j < Math.min(from + cfg.probes, i + ADD_BATCH); j++) batch.push(requestOf(j));
    const { processedRequests } = await queue.addRequests(batch);
    falsePositives += processedRequests.filter((r) => r.wasAlreadyHandled).length;
  }
  out.probes = cfg.probes;
  out.falsePositives = falsePositives;
  // The filter's own estimate at the exact handled count, when the queue reports one (RedisQueueAdmin.storage()).
  const pkg = await import(cfg.impl);
  if (pkg.RedisQueueAdmin && 'HandledModeMismatchError' in pkg) {
    const admin = new pkg.RedisQueueAdmin({ redis: cfg.redisUrl, keyPrefix: cfg.keyPrefix, name: cfg.name });
    out.storage = await admin.storage();
    await admin.close();
  }
  console.error(`[${cfg.backend}${cfg.label ? ' ' + cfg.label : ''}] ${falsePositives} of ${cfg.probes} new requests reported as handled`);
} else {
  const addSecs = await addRange(queue, 0, cfg.n, { handledAt: new Date().toISOString() });
  const mem = await bytesNow();
  await addRange(queue, cfg.n, cfg.n + cfg.pendingExtra);
  out.addHandledRate = cfg.n / addSecs;
  out.bytes = mem - base;
  out.perHandled = (mem - base) / cfg.n;
  console.error(`[${cfg.backend}${cfg.label ? ' ' + cfg.label : ''}] ${cfg.n} handled: ${out.perHandled.toFixed(1)} B/handled`);
}

out.info = await queue.client.get();
if (redis) {
  out.memoryInfo = await memoryInfo(redis);
  out.keys = groupBuckets(await keyBreakdown(redis, `*${cfg.keyPrefix}:rq:*`, cfg.samples));
  redis.disconnect();
}
out.rss = process.memoryUsage().rss;
// Crawlee's RequestQueue keeps timers; leave once the result is written (a pipe is asynchronous: exiting at once
// would cut a long line).
process.stdout.write(`${JSON.stringify(out)}\n`, () => process.exit(0));
