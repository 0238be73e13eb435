// `crawlee-redis dashboard` as users run it: the built bin as a child process, on a real queue with a worker that
// publishes its stats; the page and its API are fetched over HTTP, and SIGINT / SIGTERM stop it with exit 0.
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Overview } from '../../src/dashboard/dashboard-api.js';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, req, type QueueWorld } from '../helpers/world.js';
import { startBin } from './run-bin.js';

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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function firstLine(run: ReturnType<typeof startBin>): Promise<string> {
  for (let i = 0; i < 200 && !run.output().includes('\n'); i++) await sleep(50);
  if (!run.output().includes('\n')) throw new Error(`no output from the dashboard (stderr: ${run.errors()})`);
  return run.output().split('\n')[0]!;
}

describe('crawlee-redis dashboard', () => {
  it('serves the page and the API of the queues under the prefix, with worker stats and dedup hits from Redis', async () => {
    world = createWorld(backend);
    const c = await world.client('worker-a', { workerStats: { intervalSecs: 0.1, ttlSecs: 30 } });
    await c.batchAddRequests([req(1), req(2), req(3)]);
    await c.batchAddRequests([req(2), req(3)]); // two dedup hits
    const { items } = await c.listAndLockHead({ limit: 1, lockSecs: 60 });
    await c.updateRequest({ ...req(1), id: items[0]!.id, handledAt: new Date().toISOString() });
    await sleep(300); // two publishes
    const admin = world.admin();

    const run = startBin(['dashboard', '--port', '0', '--json', '--redis', url, '--key-prefix', world.keyPrefix]);
    try {
      const started = JSON.parse(await firstLine(run)) as { url: string; exposed: boolean; keyPrefix: string };
      expect(started).toMatchObject({ exposed: false, keyPrefix: world.keyPrefix });
      expect(started.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      expect(run.errors()).not.toContain('warning');

      const html = await (await fetch(started.url)).text();
      expect(html).toContain('<title>crawlee-redis dashboard</title>');
      const overview = (await (await fetch(`${started.url}api/overview`)).json()) as Overview;
      expect(overview.keyPrefix).toBe(world.keyPrefix);
      expect(overview.queues.map((q) => q.name)).toEqual(['queue']);
      const [queue] = overview.queues;
      expect(queue!.stats).toEqual(await admin.stats());
      expect(queue!.stats).toMatchObject({ total: 3, handled: 1, locked: 0, pending: 2 });
      const crawl = await admin.crawlStats();
      expect(crawl.alreadyPresent).toBe(2);
      expect(queue!.dedupHits).toBe(2);
      const workers = await admin.workers();
      expect(queue!.workers).toMatchObject([{ id: workers[0]!.id, state: 'alive', handled: 1 }]);
      expect(overview.memoryBytes).toBeGreaterThan(0);
    } finally {
      run.child.kill('SIGINT');
    }
    expect(await run.exited).toBe(0);
  });

  it('warns on a non-loopback host, and refuses a bad port (exit 2) or an unreachable Redis (exit 1)', async () => {
    world = createWorld(backend);
    const exposed = startBin(['dashboard', '--port', '0', '--host', '0.0.0.0', '--redis', url, '--key-prefix', world.keyPrefix]);
    try {
      const line = await firstLine(exposed);
      expect(line).toMatch(/^dashboard of key prefix "rqt-[^"]+" on redis:\/\/127\.0\.0\.1:\d+: open http:\/\/0\.0\.0\.0:\d+\/ \(Ctrl-C to stop\)$/);
      expect(exposed.errors()).toMatch(/^warning: the dashboard listens on 0\.0\.0\.0: it has no authentication/);
      const port = new URL(line.replace(/^.* open (\S+) .*$/, '$1')).port;
      expect((await fetch(`http://127.0.0.1:${port}/api/overview`)).status).toBe(200);
    } finally {
      exposed.child.kill('SIGTERM');
    }
    expect(await exposed.exited).toBe(0);

    const badPort = startBin(['dashboard', '--port', '70000', '--redis', url]);
    expect(await badPort.exited).toBe(2);
    expect(badPort.errors()).toContain('--port must be a TCP port number from 0 to 65535 (got 70000)');
    const unreachable = startBin(['dashboard', '--port', '0', '--redis', 'redis://ops:hidden-pass@127.0.0.1:1']);
    expect(await unreachable.exited).toBe(1);
    expect(unreachable.output()).toBe('');
    expect(unreachable.errors()).not.toContain('hidden-pass');
  }, 30_000);
});
