// The politeness state in `crawlee-redis stats` (text and JSON), read through the admin by the built bin.
import { afterAll, afterEach, beforeAll, expect, inject, it } from 'vitest';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, req, type QueueWorld } from '../helpers/world.js';
import { runBin } from '../cli/run-bin.js';
import { hreq } from './helpers.js';

let backend: TestBackend;
let world: QueueWorld;
let url: string;
beforeAll(async () => {
  url = inject('redisUrl');
  backend = await createBackend('ioredis6-resp3', url);
});
afterAll(async () => {
  await backend.stop();
});
afterEach(async () => {
  await world.cleanup();
});

const cli = (args: string[]) => runBin([...args, '--redis', url, '--key-prefix', world.keyPrefix]);

it('stats shows hosts waiting, the longest wait and the busiest hosts of a polite queue, and nothing for an unpolite one', async () => {
  world = createWorld(backend, 'polite-cli');
  const w = await world.client('w', { politeness: { minDelaySecs: 30 }, workerStats: false });
  await w.batchAddRequests([hreq('a.test', 1), hreq('a.test', 2), hreq('b.test', 1), hreq('b.test', 2), hreq('c.test', 1)]);
  await w.listAndLockHead({ limit: 10, lockSecs: 60 });
  await w.backOffHost('c.test', 100);
  const json = JSON.parse((await cli(['stats', world.name, '--json'])).stdout);
  expect(json.politeness).toMatchObject({ enabled: true, minDelaySecs: 30, maxConcurrencyPerHost: 1, hosts: 2, hostsWaiting: 2, delayed: 0 });
  expect(json.politeness.inFlight).toEqual({ 'a.test': 1, 'b.test': 1, 'c.test': 1 });
  expect(json.politeness.longestWaitSecs).toBeGreaterThan(25);
  const text = (await cli(['stats', world.name])).stdout;
  expect(text).toMatch(/politeness:\s+min delay 30 s, at most 1 per host; 2 hosts with requests, 2 waiting, longest wait \d+\.\d s, 0 retries delayed; in flight: (?:[abc]\.test 1(?:, |$)){3}/m);

});

it('stats shows no politeness line for a queue without politeness', async () => {
  world = createWorld(backend, 'plain-cli');
  const p = await world.client('p', { workerStats: false });
  await p.batchAddRequests([req(1)]);
  expect((await cli(['stats', world.name])).stdout).not.toMatch(/politeness/);
  expect(JSON.parse((await cli(['stats', world.name, '--json'])).stdout).politeness).toMatchObject({ enabled: false });
});

it('watch shows the politeness lines of a polite queue and pending per shard of a sharded one (text and JSON)', async () => {
  world = createWorld(backend, 'shard-watch', { shards: 3 });
  const w = await world.client('w', { politeness: { minDelaySecs: 30 }, workerStats: false });
  // big.test's requests share one shard (shardBy 'host'): the skew the bars show.
  await w.batchAddRequests([...Array.from({ length: 9 }, (_, n) => hreq('big.test', n)), hreq('a.test', 1), hreq('b.test', 1)]);
  await w.backOffHost('big.test', 100);
  const perShard = await world.admin().shardStats();
  const text = (await cli(['watch', world.name, '--frames', '1'])).stdout;
  expect(text).toMatch(/^politeness: min delay 30 s/m);
  expect(text).toMatch(/^longest waits: big\.test \d+\.\d s/m); // the 100 s backoff, counting down
  expect(text).toMatch(/^shards: 3, pending per shard/m);
  const busiest = perShard.findIndex((s) => s.pending >= 9);
  for (const [i, s] of perShard.entries()) {
    const line = text.split('\n').find((l) => l.startsWith(`  s${i} `))!;
    expect(line).toMatch(new RegExp(`pending +${s.pending} .*locked +${s.locked} +handled +${s.handled}`));
    if (i === busiest) expect(line).toMatch(/#{24}$/); // the busiest shard's bar is the full width
  }
  const frame = JSON.parse((await cli(['watch', world.name, '--frames', '1', '--json'])).stdout.trim());
  expect(frame.shards).toEqual(perShard);
  expect(Object.keys(frame.politeness.waiting)).toContain('big.test');
});
