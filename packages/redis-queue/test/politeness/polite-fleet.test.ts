// Politeness across worker processes (the built package, one Redis): 3 workers, 10 hosts. The gap between two
// requests to one host never under minDelaySecs, one request per host at a time, and a worker SIGKILLed while it
// holds locks: its locks expire, their hosts get their slots back, and every request is still done exactly once.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, expect, inject, it } from 'vitest';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, type QueueWorld } from '../helpers/world.js';
import { mostInFlight, smallestGaps, type Visit } from './gap-log.js';
import { hreq } from './helpers.js';

const WORKER = fileURLToPath(new URL('./polite-worker.mjs', import.meta.url));
const SLACK_MS = 5;

let backend: TestBackend;
let world: QueueWorld;
let dir: string;
beforeAll(async () => {
  backend = await createBackend('ioredis6-resp3', inject('redisUrl'));
});
afterAll(async () => {
  await backend.stop();
});
afterEach(async () => {
  await world?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

interface Worker {
  file: string;
  exited: Promise<number | string>;
}

function startWorker(index: number, config: Record<string, unknown>): Worker {
  const file = join(dir, `w${index}.events`);
  const child = spawn(process.execPath, [WORKER, JSON.stringify({ ...config, resultFile: file, gateFile: join(dir, 'go') })], { stdio: ['ignore', 'inherit', 'inherit'] });
  return { file, exited: new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'))) };
}

const lines = (w: Worker) => (existsSync(w.file) ? readFileSync(w.file, 'utf8').trim().split('\n').filter(Boolean) : []);

it('3 worker processes, 10 hosts, one killed while it holds locks: gaps hold, one per host at a time, nothing lost', { timeout: 120_000 }, async () => {
  world = createWorld(backend, 'polite-fleet');
  dir = mkdtempSync(join(tmpdir(), 'polite-fleet-'));
  const politeness = { minDelaySecs: 0.3 };
  const seed = await world.client('seed', { politeness });
  const hosts = Array.from({ length: 10 }, (_, i) => `h${i}.test`);
  await seed.batchAddRequests(hosts.flatMap((h) => [1, 2, 3].map((n) => hreq(h, n))));
  const base = { redisUrl: inject('redisUrl'), keyPrefix: world.keyPrefix, queueName: world.name, politeness, workMs: 30, limit: 3, lockSecs: 2 };
  const workers = [startWorker(0, { ...base, killOnFirstLock: true }), startWorker(1, base), startWorker(2, base)];
  const deadline = Date.now() + 60_000;
  while (!workers.every((w) => lines(w).some((l) => l.startsWith('R ')))) {
    if (Date.now() > deadline) throw new Error('workers did not open the queue');
    await sleep(50);
  }
  // The killer takes its locks first, then the others start.
  writeFileSync(join(dir, 'go'), 'go');
  expect(await workers[0]!.exited).toBe('SIGKILL');
  const codes = await Promise.all(workers.slice(1).map((w) => w.exited));
  expect(codes).toEqual([0, 0]);

  const killedHosts = lines(workers[0]!).find((l) => l.startsWith('L '))!.split(' ').slice(2);
  expect(killedHosts.length).toBeGreaterThan(0);
  const visits: Visit[] = workers.slice(1).flatMap((w) =>
    lines(w)
      .filter((l) => l.startsWith('V '))
      .map((l) => {
        const [, host, start, end] = l.split(' ');
        return { host: host!, start: Number(start), end: Number(end) };
      }),
  );
  for (const w of workers.slice(1)) expect(lines(w).filter((l) => l.startsWith('E '))).toEqual([]);
  // Every request once: the killed worker's requests came back after their locks expired.
  expect(visits).toHaveLength(30);
  expect(new Set(visits.map((v) => `${v.host}`)).size).toBe(10);
  for (const [host, gap] of smallestGaps(visits)) expect(gap, host).toBeGreaterThanOrEqual(300 - SLACK_MS);
  for (const [host, most] of mostInFlight(visits)) expect(most, host).toBe(1);
  const stats = await seed.politenessStats();
  expect(stats).toMatchObject({ hosts: 0, hostsWaiting: 0, inFlight: {} });
  expect(await seed.get()).toMatchObject({ handledRequestCount: 30, pendingRequestCount: 0 });
});
