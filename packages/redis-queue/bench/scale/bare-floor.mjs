#!/usr/bin/env node
// The Redis side's floor, beside the queue in the same run: what the least an add can do costs at each size on the
// same redis-server build: one HSET of a request-sized record into one big hash and one RPUSH of its id, 1,000 per
// EVALSHA (the add script's batch), no dedup, no counters. When the queue's Redis CPU per add grows with the size by
// about the factor this floor grows, the growth is Redis's own (a hash of millions of entries no longer fits the CPU
// caches), not the queue's layout. Own redis-server (test-utils), stopped by PID. Prints one JSON line.
//
// argv[2] is JSON: { checkpoints: [100000, 1000000, 5000000], window: 50000 } (run.mjs passes the run's own).
import console from 'node:console';
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { Redis } from 'ioredis';
import { startRedisServer } from '@crawlee-distributed/test-utils';
import { serverCounters } from '../redis-info.mjs';
import { urlOf } from './workload.mjs';

const cfg = JSON.parse(process.argv[2] ?? '{}');
const checkpoints = cfg.checkpoints ?? [100_000, 1_000_000, 5_000_000];
const window = cfg.window ?? 50_000;
const BATCH = 1000;
const SCRIPT = `for i = 1, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]); redis.call('RPUSH', KEYS[2], ARGV[i]) end return #ARGV / 2`;

/** A request-sized entry: a 15-character id (as Crawlee's) and a record of about a format-2 record's size. */
function entry(i) {
  const url = urlOf(i);
  const id = createHash('sha256').update(url).digest('base64url').slice(0, 15);
  return [id, JSON.stringify({ u: url, d: { label: i % 10 === 0 ? 'LIST' : 'DETAIL', depth: i % 5 } })];
}

async function addRange(redis, sha, from, to) {
  for (let i = from; i < to; i += BATCH) {
    const args = [];
    for (let j = i; j < Math.min(to, i + BATCH); j++) args.push(...entry(j));
    await redis.evalsha(sha, 2, '{floor}:data', '{floor}:fifo', ...args);
  }
}

const server = await startRedisServer();
const redis = new Redis(server.url);
try {
  const sha = await redis.script('LOAD', SCRIPT);
  const points = [];
  let added = 0;
  for (const c of checkpoints) {
    await addRange(redis, sha, added, c - window);
    const r0 = await serverCounters(redis);
    const t0 = performance.now();
    await addRange(redis, sha, c - window, c);
    const secs = (performance.now() - t0) / 1000;
    const r1 = await serverCounters(redis);
    added = c;
    const point = { inQueue: c, rate: window / secs, redisUs: ((r1.cpuSeconds - r0.cpuSeconds) / window) * 1e6, bytesPerEntry: r1.usedMemory / c };
    points.push(point);
    console.error(`[floor] ${c}: ${Math.round(point.rate)}/s, Redis CPU ${point.redisUs.toFixed(1)} µs/entry, ${point.bytesPerEntry.toFixed(0)} B/entry`);
  }
  process.stdout.write(`${JSON.stringify({ points })}\n`);
} finally {
  redis.disconnect();
  await server.destroy();
}
