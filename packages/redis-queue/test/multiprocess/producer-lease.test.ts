// A producer that adds while holding no request lock (a seeding script, a sitemap reader) must keep the queue
// open: with a producer lease no worker finishes before the producer releases it, and a SIGKILLed producer lets
// them finish once its lease expires (Redis time). The control run without a lease shows the early finish.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { afterEach, expect, inject, it } from 'vitest';
import { RedisQueueAdmin } from '../../src/admin/redis-queue-admin.js';
import { Fleet, waitUntil } from './fleet.js';

const PRODUCER = fileURLToPath(new URL('./producer.mjs', import.meta.url));
const FIRST = 100;
let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

function setup() {
  const redisUrl = inject('redisUrl');
  const keyPrefix = `lease-${randomUUID().slice(0, 8)}`;
  const queueName = 'leased';
  // max 1: request 1 (the workers' own seed) adds nothing, so the producer is the only source of work.
  const fleet = new Fleet({ redisUrl, keyPrefix, queueName, max: 1, handlerMs: 20, concurrency: 2, handlerTimeoutSecs: 30 });
  const admin = new RedisQueueAdmin({ redis: redisUrl, keyPrefix, name: queueName });
  cleanup.push(async () => {
    await fleet.destroy();
    await admin.dropHashTag();
    await admin.close();
  });
  return { redisUrl, keyPrefix, queueName, fleet, admin };
}

function startProducer(s: ReturnType<typeof setup>, extra: { leaseSecs?: number; count: number; gapMs: number }) {
  const resultFile = join(s.fleet.dir, 'producer.events');
  const child = spawn(process.execPath, [PRODUCER, JSON.stringify({ ...s, fleet: undefined, admin: undefined, first: FIRST, resultFile, ...extra })], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const events = () => (existsSync(resultFile) ? readFileSync(resultFile, 'utf8').split('\n').filter(Boolean) : []);
  const at = (kind: string) => events().filter((l) => l.startsWith(`${kind} `)).map((l) => Number(l.split(' ').at(-1)));
  cleanup.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  return { child, exited, at };
}

it('no worker finishes while a producer lease is alive; all added requests are handled', { timeout: 120_000 }, async () => {
  const s = setup();
  const producer = startProducer(s, { leaseSecs: 5, count: 8, gapMs: 400 });
  await waitUntil(() => producer.at('L').length === 1, 30_000, 'the producer lease');
  await s.fleet.startTogether(2);
  await s.fleet.waitAll(90_000);
  const released = producer.at('U')[0]!;
  expect(released).toBeGreaterThan(0);
  const logs = s.fleet.logs();
  for (const log of logs) expect(log.finishedAt!).toBeGreaterThanOrEqual(released);
  const handled = new Set(logs.flatMap((log) => [...log.dones.keys()]));
  for (let i = FIRST; i < FIRST + 8; i++) expect(handled.has(i)).toBe(true);
  expect(await s.admin.producerLeases()).toEqual([]);
});

it('control: without a lease the workers finish while the producer is still adding', { timeout: 120_000 }, async () => {
  const s = setup();
  await s.fleet.startTogether(2);
  const producer = startProducer(s, { count: 6, gapMs: 1500 });
  await s.fleet.waitAll(90_000);
  const finished = Math.max(...s.fleet.logs().map((log) => log.finishedAt!));
  await producer.exited;
  // The producer's last add comes after every worker finished: that request is left for nobody.
  expect(producer.at('A').at(-1)!).toBeGreaterThan(finished);
});

it('a SIGKILLed producer lets the workers finish once its lease expires (Redis time)', { timeout: 120_000 }, async () => {
  const s = setup();
  const producer = startProducer(s, { leaseSecs: 3, count: 1000, gapMs: 300 });
  await waitUntil(() => producer.at('A').length >= 2, 30_000, 'the producer adding');
  await s.fleet.startTogether(2);
  await waitUntil(() => producer.at('A').length >= 5, 30_000, 'more adds');
  producer.child.kill('SIGKILL');
  await producer.exited;
  const killedAt = Date.now();
  expect((await s.admin.producerLeases()).length).toBe(1);
  await s.fleet.waitAll(60_000);
  const logs = s.fleet.logs();
  // Not before the lease ran out (about 3 s after the last renewal, at most 1 s before the kill), but they do finish.
  for (const log of logs) expect(log.finishedAt! - killedAt).toBeGreaterThan(1500);
  const added = producer.at('A').length;
  const handled = new Set(logs.flatMap((log) => [...log.dones.keys()].filter((i) => i >= FIRST)));
  expect(handled.size).toBe(added);
});
