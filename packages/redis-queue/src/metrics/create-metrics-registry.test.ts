// createMetricsRegistry on real queues: the exposition text is parsed and checked against the queues' state.
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { createBackend, type TestBackend } from '../../test/helpers/backends.js';
import { createWorld, req, type QueueWorld } from '../../test/helpers/world.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { createMetricsRegistry } from './create-metrics-registry.js';

let backend: TestBackend;
let world: QueueWorld;
beforeAll(async () => {
  backend = await createBackend('ioredis6-resp3', inject('redisUrl'));
});
afterAll(async () => {
  await backend.stop();
});
afterEach(async () => {
  await world.cleanup();
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A small parser of the Prometheus text format (0.0.4): `# TYPE` lines and samples with labels. */
function parseExposition(text: string): { types: Record<string, string>; samples: Sample[] } {
  const types: Record<string, string> = {};
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('# TYPE ')) {
      const [, , name, type] = line.split(' ');
      types[name!] = type!;
      continue;
    }
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = value!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return { types, samples };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('createMetricsRegistry', () => {
  it('exports per-queue and per-worker metrics read from Redis on each scrape', async () => {
    world = createWorld(backend);
    const c = await world.client('w1', { workerStats: { intervalSecs: 0.1, ttlSecs: 30 } });
    await c.batchAddRequests([req(1), req(2), req(3)]);
    await c.batchAddRequests([req(1)]);
    const { items } = await c.listAndLockHead({ limit: 2, lockSecs: 60 });
    await c.updateRequest({ ...req(1), id: items[0]!.id, handledAt: new Date().toISOString() });
    await world.redis.hset(c.keys.dead, 'junk', 'x');
    await sleep(300);

    const registry = createMetricsRegistry({ redis: world.redis, keyPrefix: world.keyPrefix, cacheMs: 0 });
    const { types, samples } = parseExposition(await registry.metrics());
    const value = (name: string, labels: Record<string, string> = { queue: 'queue' }) =>
      samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
    expect(value('crawlee_queue_pending_requests')).toBe(2);
    expect(value('crawlee_queue_locked_requests')).toBe(1);
    expect(value('crawlee_queue_handled_requests_total')).toBe(1);
    expect(value('crawlee_queue_failed_requests_total')).toBe(0);
    expect(value('crawlee_queue_dead_letters')).toBe(1);
    expect(value('crawlee_queue_dedup_hits_total', { queue: 'queue', source: 'queue' })).toBe(1);
    expect(value('crawlee_queue_bytes')).toBeGreaterThan(0);
    expect(value('crawlee_queue_workers', { queue: 'queue', state: 'alive' })).toBe(1);
    const worker = samples.find((s) => s.name === 'crawlee_worker_up')!;
    expect(worker.value).toBe(1);
    expect(worker.labels.worker).toMatch(new RegExp(`:${process.pid}:`));
    expect(value('crawlee_worker_handled_requests_total', { worker: worker.labels.worker! })).toBe(1);
    expect(value('crawlee_worker_locks', { worker: worker.labels.worker! })).toBe(1);
    // Prometheus conventions: counters end in _total, gauges do not.
    for (const [name, type] of Object.entries(types)) {
      expect(name.endsWith('_total')).toBe(type === 'counter');
      expect(name).toMatch(/^crawlee_(queue|worker)_[a-z_]+$/);
    }

    // Collected on scrape: a change in Redis shows on the next one; a stopped worker is down.
    await c.batchAddRequests([req(4)]);
    await (c as unknown as { core: { workerStats: { close(): Promise<void> } } }).core.workerStats.close();
    const next = parseExposition(await registry.metrics()).samples;
    expect(next.find((s) => s.name === 'crawlee_queue_pending_requests')!.value).toBe(3);
    expect(next.find((s) => s.name === 'crawlee_worker_up')!.value).toBe(0);
    expect(next.find((s) => s.name === 'crawlee_worker_requests_per_second')!.value).toBe(0);
    expect(next.find((s) => s.name === 'crawlee_worker_liveness_lapses_total')!.value).toBe(0);
  });

  it('rejects a bad key prefix or queue name before connecting', () => {
    world = createWorld(backend);
    expect(() => createMetricsRegistry({ redis: world.redis, keyPrefix: 'a{b' })).toThrow(InvalidOptionsError);
    expect(() => createMetricsRegistry({ redis: world.redis, queues: ['x}'] })).toThrow(InvalidOptionsError);
  });
});
