// Several worker processes pushData into one Redis dataset at the same moment; Crawlee's Dataset (getData, forEach,
// exportToJSON) and exportDataset then see every item exactly once.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Configuration, Dataset, KeyValueStore } from 'crawlee';
import { expect, inject, it } from 'vitest';
import { exportDataset } from '../../src/dataset/export-dataset.js';
import { RedisStorageClient } from '../../src/storage/redis-storage-client.js';

const WORKER = fileURLToPath(new URL('./push-worker.mjs', import.meta.url));
const WORKERS = 4;
const PER_WORKER = 200;

function startWorker(args: Record<string, unknown>): { ready: Promise<void>; exited: Promise<number | null>; output: () => string } {
  const child = spawn(process.execPath, [WORKER, JSON.stringify(args)], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CRAWLEE_LOG_LEVEL: 'WARNING' } });
  let output = '';
  let onReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    output += String(chunk);
    if (output.includes('ready')) onReady();
  });
  child.stderr.on('data', (chunk: Buffer) => (output += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { ready: Promise.race([ready, exited.then(() => Promise.reject(new Error(`worker exited early: ${output}`)))]), exited, output: () => output };
}

it(`${WORKERS} worker processes pushData at once: getData, forEach, exportToJSON and exportDataset see each item once`, async () => {
  const redisUrl = inject('redisUrl');
  const keyPrefix = `t-${randomUUID()}`;
  const name = `results-${randomUUID()}`;
  const dir = mkdtempSync(join(tmpdir(), 'ds-mp-'));
  const gateFile = join(dir, 'go');
  const workers = Array.from({ length: WORKERS }, (_, worker) => startWorker({ redisUrl, keyPrefix, name, worker, count: PER_WORKER, gateFile }));
  await Promise.all(workers.map((w) => w.ready));
  writeFileSync(gateFile, 'go');
  const codes = await Promise.all(workers.map((w) => w.exited));
  expect(codes, workers.map((w) => w.output()).join('\n')).toEqual(Array(WORKERS).fill(0));

  const storageClient = new RedisStorageClient({ redis: redisUrl, keyPrefix, datasets: 'redis' });
  try {
    const config = new Configuration({ storageClient, persistStorage: false, purgeOnStart: false });
    const dataset = await Dataset.open(name, { config });
    const expected = Array.from({ length: WORKERS * PER_WORKER }, (_, k) => `${Math.floor(k / PER_WORKER)}/${k % PER_WORKER}`).sort();
    const key = (item: Record<string, unknown>) => `${String(item.worker)}/${String(item.n)}`;

    const data = await dataset.getData();
    expect(data.total).toBe(WORKERS * PER_WORKER);
    expect(data.items.map(key).sort()).toEqual(expected);
    expect((await dataset.getInfo())?.itemCount).toBe(WORKERS * PER_WORKER);

    const seen: string[] = [];
    await dataset.forEach((item, index) => {
      expect(index).toBe(seen.length);
      seen.push(key(item));
    }, { limit: 150 }); // forEach pages through listItems 150 at a time
    expect(seen.sort()).toEqual(expected);

    await dataset.exportToJSON('RESULTS');
    const exported = (await (await KeyValueStore.open(null, { config })).getValue('RESULTS')) as Record<string, unknown>[];
    expect(exported.map(key).sort()).toEqual(expected);

    const file = join(dir, 'results.jsonl');
    await exportDataset({ redis: redisUrl, keyPrefix, name, format: 'jsonl', output: file, chunkSize: 128 });
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map(key).sort()).toEqual(expected);
    await storageClient.dataset(name).delete();
  } finally {
    await storageClient.close();
  }
});
