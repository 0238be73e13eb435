#!/usr/bin/env node
// Scratch prototype of candidate compact layouts for the compact frontier (docs/compact-frontier.md), written straight into Redis with ioredis (no package
// code): bytes per pending request and per handled request in each layout and handledRequests mode, the measured
// false-positive rate of 'bits', and an order check of layout C's lock script (forefront newest first, FIFO, expired
// locks back at their original position). Each measurement runs on a fresh redis-server of its own (default config)
// stopped by PID. Usage: node bench/scale/proto/layouts.mjs [--n 1000000] [--probes 1000000] [--load 48] [--only B,C,D]
import console from 'node:console';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { getRequestId } from 'crawlee';
import { Redis } from 'ioredis';
import { startRedisServer } from '@crawlee-distributed/test-utils';
import { keyBreakdown, usedMemory } from '../redis-memory.mjs';
import { requestsBetween } from '../workload.mjs';
import { encodeV2 } from './record-v2.mjs';
import { B_ADD, C_ADD, C_HANDLE, C_LOCK, D_ADD, D2_ADD, D2_HANDLE, D2_LOCK } from './lua.mjs';

const { values: opts } = parseArgs({
  options: {
    n: { type: 'string', default: '1000000' },
    probes: { type: 'string', default: '1000000' },
    load: { type: 'string', default: '48' },
    only: { type: 'string', default: 'B-memory,D-memory,C,D' },
  },
});
const N = Number(opts.n);
const PROBES = Number(opts.probes);
const TAG = '{p:rq:q}';
const K = (s) => `${TAG}:${s}`;
const C_KEYS = ['meta', 'data', 'fifo', 'front', 'back', 'locks', 'lockinfo', 'done'].map(K);
const BATCH = 500;
const LOAD = Number(opts.load); // mean entries per index bucket (hash-max-listpack-entries is 512 on a default 7.0)
const P = 1e-6;
const bloomM = (n) => Math.ceil((-n * Math.log(P)) / Math.LN2 ** 2);
const bloomK = (n) => Math.round((bloomM(n) / n) * Math.LN2);
const log = (m) => console.error(`[proto ${new Date().toISOString().slice(11, 19)}] ${m}`);

/** Request i as [id, format-2 record] (ids and records built once per chunk). */
function chunk(from, to) {
  return requestsBetween(from, to).map((r) => [getRequestId(r.uniqueKey), encodeV2(r)]);
}

async function withRedis(fn) {
  const server = await startRedisServer();
  const redis = new Redis(server.url);
  for (const [name, lua] of Object.entries({ cAdd: C_ADD, cLock: C_LOCK, cHandle: C_HANDLE, bAdd: B_ADD, dAdd: D_ADD, d2Add: D2_ADD, d2Lock: D2_LOCK, d2Handle: D2_HANDLE })) redis.defineCommand(name, { lua });
  try {
    return await fn(redis);
  } finally {
    redis.disconnect();
    await server.destroy();
  }
}

const handledArgs = (mode, n) => [mode, bloomM(n), bloomK(n), TAG, LOAD];

/** Layout C: adds N, measures; locks and handles all N, measures. */
async function layoutC(mode) {
  return withRedis(async (redis) => {
    const base = await usedMemory(redis);
    if (mode === 'bits') await redis.setbit(K('hb'), bloomM(N) - 1, 0); // the filter is allocated once, at its size
    for (let i = 0; i < N; i += BATCH) await redis.cAdd(C_KEYS.length, ...C_KEYS, ...handledArgs(mode, N), '0', ...chunk(i, Math.min(N, i + BATCH)).flat());
    const pendingMem = await usedMemory(redis);
    const pendingKeys = await keyBreakdown(redis, `${TAG}*`, 0);
    const t0 = Date.now();
    for (;;) {
      const out = await redis.cLock(C_KEYS.length, ...C_KEYS, BATCH, 60000, 'w1', 1000);
      if (out.length === 0) break;
      const ids = out.filter((_, x) => x % 3 === 0);
      await redis.cHandle(C_KEYS.length, ...C_KEYS, ...handledArgs(mode, N), 'w1', ...ids);
    }
    const handleSecs = (Date.now() - t0) / 1000;
    const handledMem = await usedMemory(redis);
    const handledKeys = await keyBreakdown(redis, `${TAG}*`, 0);
    const meta = await redis.hgetall(K('meta'));
    let falsePositives;
    if (mode === 'bits' && PROBES > 0) {
      // Requests never added: each reported "handled" is a false positive.
      falsePositives = 0;
      for (let i = N; i < N + PROBES; i += BATCH) {
        const res = await redis.cAdd(C_KEYS.length, ...C_KEYS, ...handledArgs(mode, N), '0', ...chunk(i, Math.min(N + PROBES, i + BATCH)).flat());
        falsePositives += res.filter((r) => r === 2).length;
      }
    }
    return {
      layout: 'C lists',
      mode,
      perPending: (pendingMem - base) / N,
      perHandled: (handledMem - base) / N,
      handleRate: N / handleSecs,
      meta,
      falsePositives,
      pendingKeys: summarize(pendingKeys),
      handledKeys: summarize(handledKeys),
    };
  });
}

/** Layout B (one sorted set) and D (buckets): pending bytes only. */
async function layoutPendingOnly(name) {
  return withRedis(async (redis) => {
    const base = await usedMemory(redis);
    for (let i = 0; i < N; i += BATCH) {
      const pairs = chunk(i, Math.min(N, i + BATCH)).flat();
      if (name === 'B') await redis.bAdd(3, K('meta'), K('data'), K('avail'), ...pairs);
      else await redis.dAdd(1, K('meta'), ...handledArgs('key', N), ...pairs);
    }
    const mem = await usedMemory(redis);
    return { layout: name === 'B' ? 'B hash + one zset' : 'D buckets', perPending: (mem - base) / N, pendingKeys: summarize(await keyBreakdown(redis, `${TAG}*`, 0)) };
  });
}

/** Keys grouped by role (bucket keys summed), bytes and bytes per element. */
function summarize(rows) {
  const groups = {};
  for (const r of rows) {
    const role = r.key.slice(TAG.length + 1).replace(/:\d+$/, ':*');
    const g = (groups[role] ??= { role, keys: 0, type: r.type, encodings: new Set(), length: 0, bytes: 0 });
    g.keys++;
    g.encodings.add(r.encoding);
    g.length += r.length;
    g.bytes += r.bytes;
  }
  return Object.values(groups).map((g) => ({ ...g, encodings: [...g.encodings].join('+'), perElement: g.length ? g.bytes / g.length : undefined }));
}

/** Contract check of layout C's lock script: order, and expired locks back at their original position. */
async function orderCheck() {
  return withRedis(async (redis) => {
    const add = (names, forefront) => redis.cAdd(C_KEYS.length, ...C_KEYS, ...handledArgs('key', 100), forefront ? '1' : '0', ...names.flatMap((n) => [n, `S${n}\n`]));
    const lock = async (limit, ms) => (await redis.cLock(C_KEYS.length, ...C_KEYS, limit, ms, 'w', 100)).filter((_, x) => x % 3 === 0);
    await add(['a1', 'a2', 'a3', 'a4', 'a5'], false);
    await add(['f1'], true);
    await add(['f2'], true);
    const first = await lock(3, 50);
    await sleep(120);
    await add(['f3'], true);
    const second = await lock(10, 60000);
    const again = await add(['a1', 'f3'], false);
    return {
      first: first.join(','),
      second: second.join(','),
      ok: first.join(',') === 'f2,f1,a1' && second.join(',') === 'f3,f2,f1,a1,a2,a3,a4,a5' && again.join(',') === '1,1',
    };
  });
}

const D_KEYS = ['meta', 'held', 'back', 'locks', 'done'].map(K);

/** Layout D (buckets) end to end: adds N, measures; locks and handles all N, measures; Bloom probes in 'bits'. */
async function layoutD(mode) {
  return withRedis(async (redis) => {
    const base = await usedMemory(redis);
    if (mode === 'bits') await redis.setbit(K('hb'), bloomM(N) - 1, 0); // allocated at creation, counted per handled
    const t0 = Date.now();
    for (let i = 0; i < N; i += BATCH) await redis.d2Add(D_KEYS.length, ...D_KEYS, ...handledArgs(mode, N), '0', ...chunk(i, Math.min(N, i + BATCH)).flat());
    const addRate = N / ((Date.now() - t0) / 1000);
    const pendingMem = await usedMemory(redis);
    const pendingKeys = await keyBreakdown(redis, `${TAG}*`, 0);
    const t1 = Date.now();
    for (;;) {
      const out = await redis.d2Lock(D_KEYS.length, ...D_KEYS, ...handledArgs(mode, N), BATCH, 60000, 'w1', 1000);
      if (out.length === 0) break;
      await redis.d2Handle(D_KEYS.length, ...D_KEYS, ...handledArgs(mode, N), 'w1', ...out.filter((_, x) => x % 3 === 0));
    }
    const handleRate = N / ((Date.now() - t1) / 1000);
    const handledMem = await usedMemory(redis);
    const handledKeys = await keyBreakdown(redis, `${TAG}*`, 0);
    let falsePositives;
    if (PROBES > 0) {
      falsePositives = 0;
      for (let i = N; i < N + PROBES; i += BATCH) {
        const res = await redis.d2Add(D_KEYS.length, ...D_KEYS, ...handledArgs(mode, N), '0', ...chunk(i, Math.min(N + PROBES, i + BATCH)).flat());
        falsePositives += res.filter((r) => r === 2).length;
      }
    }
    return {
      layout: `D buckets (load ${LOAD})`,
      mode,
      perPending: (pendingMem - base) / N,
      perHandled: (handledMem - base) / N,
      addRate,
      handleRate,
      falsePositives,
      meta: await redis.hgetall(K('meta')),
      pendingKeys: summarize(pendingKeys),
      handledKeys: summarize(handledKeys),
    };
  });
}

/** The same contract check on layout D's scripts. */
async function orderCheckD() {
  return withRedis(async (redis) => {
    const ids = {};
    const idOf = (n) => (ids[n] ??= n.padEnd(15, '_'));
    const add = (names, forefront) => redis.d2Add(D_KEYS.length, ...D_KEYS, ...handledArgs('key', 100), forefront ? '1' : '0', ...names.flatMap((n) => [idOf(n), `S${n}\n`]));
    const lock = async (limit, ms) => (await redis.d2Lock(D_KEYS.length, ...D_KEYS, ...handledArgs('key', 100), limit, ms, 'w', 100)).filter((_, x) => x % 3 === 0).map((id) => id.replace(/_+$/, ''));
    await add(['a1', 'a2', 'a3', 'a4', 'a5'], false);
    await add(['f1'], true);
    await add(['f2'], true);
    const first = await lock(3, 50);
    await sleep(120);
    await add(['f3'], true);
    const second = await lock(10, 60000);
    const again = await add(['a1', 'f3', 'a9'], false);
    return {
      first: first.join(','),
      second: second.join(','),
      again: again.join(','),
      ok: first.join(',') === 'f2,f1,a1' && second.join(',') === 'f3,f2,f1,a1,a2,a3,a4,a5' && again.join(',') === '1,1,0',
    };
  });
}

const only = new Set(opts.only.split(','));
const results = { n: N, probes: PROBES, load: LOAD, order: only.has('C') ? await orderCheck() : undefined, orderD: only.has('D') ? await orderCheckD() : undefined };
log(`order check C: ${JSON.stringify(results.order)}; D: ${JSON.stringify(results.orderD)}`);
results.layouts = [];
for (const name of ['B', 'D'].filter((x) => only.has(x + '-memory'))) {
  const r = await layoutPendingOnly(name);
  log(`${r.layout}: ${r.perPending.toFixed(1)} B/pending`);
  results.layouts.push(r);
}
for (const mode of ['request', 'key', 'bits']) {
  if (!only.has('D')) break;
  const r = await layoutD(mode);
  log(`${r.layout}, ${mode}: ${r.perPending.toFixed(1)} B/pending, ${r.perHandled.toFixed(1)} B/handled, add ${Math.round(r.addRate)}/s, lock+handle ${Math.round(r.handleRate)}/s, ${r.falsePositives} of ${PROBES} never-added requests reported handled`);
  results.layouts.push(r);
}
for (const mode of ['request', 'key', 'bits']) {
  if (!only.has('C')) break;
  const r = await layoutC(mode);
  log(`C lists, ${mode}: ${r.perPending.toFixed(1)} B/pending, ${r.perHandled.toFixed(1)} B/handled, handled at ${Math.round(r.handleRate)}/s${r.falsePositives !== undefined ? `, ${r.falsePositives} false positives in ${PROBES} probes` : ''}`);
  results.layouts.push(r);
}
console.log(JSON.stringify(results, null, 2));
