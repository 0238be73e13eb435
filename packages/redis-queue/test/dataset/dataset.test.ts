// The Redis dataset client against a real Redis (standalone and a local 3-master Cluster), with Crawlee's
// MemoryStorage as the reference for listItems' offset/limit/desc semantics.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Configuration, Dataset, MemoryStorage } from 'crawlee';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { exportDataset } from '../../src/dataset/export-dataset.js';
import { datasetKeys } from '../../src/dataset/dataset-keys.js';
import { DatasetItemUnreadableError } from '../../src/dataset/errors/dataset-item-unreadable-error.js';
import { DatasetNotFoundError } from '../../src/dataset/errors/dataset-not-found-error.js';
import { InvalidDatasetItemError } from '../../src/dataset/errors/invalid-dataset-item-error.js';
import { InvalidOptionsError } from '../../src/errors/invalid-options-error.js';
import type { RedisConnection } from '../../src/core/connection.js';
import { RedisStorageClient } from '../../src/storage/redis-storage-client.js';
import { closeConnection, createBackend, type BackendKind, type TestBackend } from '../helpers/backends.js';

const config = new Configuration({ persistStorage: false, purgeOnStart: false });

async function items(client: ReturnType<RedisStorageClient['dataset']>, options: Parameters<ReturnType<RedisStorageClient['dataset']>['listItems']>[0]) {
  const page = await client.listItems(options);
  const iterated: unknown[] = [];
  for await (const item of client.listItems(options)) iterated.push(item);
  return { page: { ...page, items: page.items }, iterated };
}

for (const kind of ['ioredis6-resp3', 'cluster-ioredis6'] as BackendKind[]) {
  describe(`Redis dataset (${kind})`, () => {
    let backend: TestBackend;
    let redis: RedisConnection;
    let keyPrefix: string;
    let storageClient: RedisStorageClient;
    beforeAll(async () => {
      backend = await createBackend(kind, inject('redisUrl'));
      redis = backend.connect();
      keyPrefix = `t-${randomUUID()}`;
      storageClient = new RedisStorageClient({ redis, keyPrefix, datasets: 'redis' });
    });
    afterAll(async () => {
      await storageClient.datasets().list().then((list) => Promise.all(list.items.map((d) => storageClient.dataset(d.id).delete())));
      await closeConnection(redis);
      await backend.stop();
    });

    it('listItems matches MemoryStorage for every offset/limit/desc, awaited and iterated', async () => {
      const memory = new MemoryStorage({ persistStorage: false, writeMetadata: false });
      const ref = memory.dataset((await memory.datasets().getOrCreate('ref')).id);
      const name = `ds-${randomUUID()}`;
      const info = await storageClient.datasets().getOrCreate(name);
      expect(info).toMatchObject({ id: name, name, itemCount: 0 });
      const ours = storageClient.dataset(info.id);
      const pushes = [{ n: 0 }, JSON.stringify([{ n: 1 }, { n: 2 }]), [{ n: 3 }, JSON.stringify({ n: 4 })], { n: 5, deep: { a: [1] } }];
      for (const push of pushes) {
        await ours.pushItems(push);
        await ref.pushItems(push);
      }
      for (const desc of [false, true]) {
        for (const [offset, limit] of [[undefined, undefined], [0, 2], [2, 2], [4, 10], [6, 1], [1, undefined]] as const) {
          const options = { desc, offset, limit };
          const [a, b] = [await items(ours, options), await items(ref, options)];
          const all = (await ref.listItems()).items;
          const expected = (desc ? [...all].reverse() : all).slice(offset ?? 0, (offset ?? 0) + (limit ?? Infinity));
          expect(a.iterated, JSON.stringify(options)).toEqual(expected);
          expect(a.page.items, JSON.stringify(options)).toEqual(expected);
          // MemoryStorage 3.18 agrees except for desc with offset + limit past the start: it then ignores the offset
          // (`start = max(total - offset - limit, 0)` reads from index 0 to `limit`); we skip the newest `offset`.
          if (!desc || (offset ?? 0) + (limit ?? Infinity) <= all.length) {
            expect(a.iterated).toEqual(b.iterated);
            expect({ ...a.page, limit: undefined }).toEqual({ ...b.page, limit: undefined });
          }
          expect(a.page).toMatchObject({ total: 6, desc, offset: offset ?? 0, count: expected.length });
        }
      }
      expect((await ours.get())?.itemCount).toBe(6);
      const entries = await ours.listEntries!({ desc: true, limit: 2 });
      expect(entries.items).toEqual([[5, { n: 5, deep: { a: [1] } }], [4, { n: 4 }]]);
    });

    it('rejects a non-object item with InvalidDatasetItemError and writes nothing of that call', async () => {
      const name = `ds-${randomUUID()}`;
      await storageClient.datasets().getOrCreate(name);
      const client = storageClient.dataset(name);
      await expect(client.pushItems([{ ok: 1 }, 5 as never])).rejects.toBeInstanceOf(InvalidDatasetItemError);
      await expect(client.pushItems('[{"a":1},[2]]')).rejects.toBeInstanceOf(InvalidDatasetItemError);
      await expect(client.pushItems('{not json')).rejects.toBeInstanceOf(InvalidDatasetItemError);
      expect(await redis.llen(datasetKeys(keyPrefix, name).items)).toBe(0);
      expect(() => client.listItems({ offset: -1 })).toThrow(InvalidOptionsError); // synchronously, as MemoryStorage
    });

    it('an entry written by someone else that is not a JSON object is a DatasetItemUnreadableError naming it', async () => {
      const name = `ds-${randomUUID()}`;
      await storageClient.datasets().getOrCreate(name);
      const { items: key } = datasetKeys(keyPrefix, name);
      await redis.rpush(key, '{"fine":true}', 'not json');
      const error = await storageClient.dataset(name).listItems().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DatasetItemUnreadableError);
      expect(error).toMatchObject({ key, index: 1 });
    });

    it('Dataset.open shares one dataset across storage clients; list, delete; a missing one is DatasetNotFoundError', async () => {
      const name = `ds-${randomUUID()}`;
      const other = new RedisStorageClient({ redis, keyPrefix, datasets: 'redis' });
      const a = await Dataset.open(name, { storageClient, config });
      const b = await Dataset.open(name, { storageClient: other, config });
      await a.pushData({ from: 'a' });
      await b.pushData([{ from: 'b' }, { from: 'b2' }]);
      expect((await a.getData()).items).toEqual([{ from: 'a' }, { from: 'b' }, { from: 'b2' }]);
      expect((await b.getInfo())?.itemCount).toBe(3);
      expect((await storageClient.datasets().list()).items.map((d) => d.id)).toContain(name);
      await storageClient.dataset(name).delete();
      expect(await storageClient.dataset(name).get()).toBeUndefined();
      await expect(storageClient.dataset(name).listItems()).rejects.toBeInstanceOf(DatasetNotFoundError);
      expect((await storageClient.datasets().list()).items.map((d) => d.id)).not.toContain(name);
    });

    it('exportDataset streams JSON lines and CSV in chunks with progress; a file appears only when complete', async () => {
      const name = `ds-${randomUUID()}`;
      await storageClient.datasets().getOrCreate(name);
      const rows = Array.from({ length: 25 }, (_, n) => ({ n, url: `https://example.com/${n}`, tags: ['a', `b,${n}`] }));
      await storageClient.dataset(name).pushItems(rows);
      const dir = mkdtempSync(join(tmpdir(), 'ds-export-'));
      const progress: number[] = [];
      const jsonl = join(dir, 'out.jsonl');
      expect(await exportDataset({ redis, keyPrefix, name, format: 'jsonl', output: jsonl, chunkSize: 10, onProgress: (p) => progress.push(p.written) })).toEqual({ items: 25, duplicates: 0, withoutField: 0 });
      expect(progress).toEqual([10, 20, 25]);
      expect(readFileSync(jsonl, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as unknown)).toEqual(rows);
      const csv = join(dir, 'out.csv');
      await exportDataset({ redis, keyPrefix, name, format: 'csv', output: csv, chunkSize: 7 });
      const lines = readFileSync(csv, 'utf8').trim().split('\n');
      expect(lines).toHaveLength(26);
      expect(lines[0]).toBe('n,url,tags');
      expect(lines[4]).toBe('3,https://example.com/3,"[""a"",""b,3""]"');
      const missing = join(dir, 'missing.csv');
      await expect(exportDataset({ redis, keyPrefix, name: 'nope', format: 'csv', output: missing })).rejects.toBeInstanceOf(DatasetNotFoundError);
      await expect(exportDataset({ redis, keyPrefix, name, format: 'xml' as never, output: missing })).rejects.toBeInstanceOf(InvalidOptionsError);
      expect(existsSync(missing)).toBe(false);
    });
  });
}

describe('RedisStorageClient datasets option', () => {
  it("defaults to 'local' (MemoryStorage) and rejects anything but 'local' | 'redis'", () => {
    const local = new RedisStorageClient({ redis: 'redis://127.0.0.1:1', datasets: 'local' });
    expect(local.dataset('x').constructor.name).not.toBe('RedisDatasetClient');
    expect(() => new RedisStorageClient({ redis: 'redis://127.0.0.1:1', datasets: 's3' as never })).toThrow(InvalidOptionsError);
  });
});
