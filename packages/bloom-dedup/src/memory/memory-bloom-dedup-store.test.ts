import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bloomFilters from 'bloom-filters';
import { Configuration, KeyValueStore, log } from 'crawlee';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IncompatibleFilterError } from '../errors/incompatible-filter-error.js';
import { InvalidDedupOptionsError } from '../errors/invalid-dedup-options-error.js';
import { InvalidSnapshotError } from '../errors/invalid-snapshot-error.js';
import { MemoryBloomDedupStore } from './memory-bloom-dedup-store.js';
import { createHash } from 'node:crypto';

const fp = (prefix: string, i: number) => createHash('sha1').update(`${prefix}-${i}`).digest('hex');
const fps = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => fp(prefix, i));

describe('MemoryBloomDedupStore', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bloom-dedup-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is a bloom-filters BloomFilter sized from capacity and errorRate', () => {
    const store = new MemoryBloomDedupStore({ capacity: 1_000_000, errorRate: 1e-6 });
    expect(store.filter).toBeInstanceOf(bloomFilters.BloomFilter);
    expect(store.filter.size).toBe(28_755_176);
    expect(store.filter._nbHashes).toBe(20);
  });

  it('validates capacity and errorRate itself', () => {
    for (const [capacity, errorRate] of [[0, 0.01], [-1, 0.01], [1.5, 0.01], [100, 0], [100, 1], [100, Number.NaN]]) {
      expect(() => new MemoryBloomDedupStore({ capacity: capacity!, errorRate: errorRate! })).toThrow(InvalidDedupOptionsError);
    }
  });

  it('measured false-positive rate on 1,000,000 non-members is within 1.2x of the target; no false negatives', () => {
    const capacity = 200_000;
    const errorRate = 0.01;
    const store = new MemoryBloomDedupStore({ capacity, errorRate });
    const members = fps('member', capacity);
    const added = store.addSync(members).filter(Boolean).length;
    expect(added).toBeGreaterThan(capacity * 0.995);
    expect(store.hasSync(members).every(Boolean)).toBe(true);
    // The library's own has() (through our hashing) agrees.
    expect(members.slice(0, 1000).every((m) => store.filter.has(m))).toBe(true);
    expect(store.addSync(members).some(Boolean)).toBe(false);
    let falsePositives = 0;
    for (let i = 0; i < 1_000_000; i += 10_000) {
      falsePositives += store.hasSync(Array.from({ length: 10_000 }, (_, j) => fp('non-member', i + j))).filter(Boolean).length;
    }
    const measured = falsePositives / 1_000_000;
    expect(measured).toBeLessThanOrEqual(errorRate * 1.2);
    expect(measured).toBeGreaterThan(errorRate / 2);
  });

  it('reports each key new once, also inside one batch, and counts exactly', async () => {
    const store = new MemoryBloomDedupStore({ capacity: 1000, errorRate: 1e-4 });
    expect(await store.add(['a', 'b', 'a', fp('x', 1)])).toEqual([true, true, false, true]);
    expect(await store.has(['a', 'c'])).toEqual([true, false]);
    await store.recordFiltered(2);
    const stats = await store.stats();
    expect(stats.itemsAdded).toBe(3);
    expect(stats.filtered).toBe(2);
    expect(stats.fillRatio * store.parameters.bits).toBe(store.filter.length); // exact count of set bits
    expect(stats.bytesUsed).toBe(Math.ceil(store.parameters.bits / 8));
  });

  it('warns once when the estimated false-positive rate passes the target', () => {
    const warning = vi.spyOn(log, 'warning').mockImplementation(() => undefined);
    try {
      const store = new MemoryBloomDedupStore({ capacity: 1000, errorRate: 0.01 });
      store.addSync(fps('w', 900));
      expect(warning).not.toHaveBeenCalled();
      store.addSync(fps('w2', 300));
      store.addSync(fps('w3', 300));
      expect(warning).toHaveBeenCalledTimes(1);
      expect(String(warning.mock.calls[0]![0])).toMatch(/above the target 0.01/);
    } finally {
      warning.mockRestore();
    }
  });

  it('saves to and restores from a file: the resumed store knows every key', async () => {
    const file = join(dir, 'filter.bin');
    const first = await MemoryBloomDedupStore.open({ capacity: 50_000, errorRate: 1e-4, snapshot: { file } });
    const keys = fps('saved', 20_000);
    first.addSync(keys);
    await first.recordFiltered(7);
    await first.close(); // autoSave writes on close
    const size = (await readFile(file)).length;
    expect(size).toBeLessThan(Math.ceil(first.parameters.bits / 8) + 400);
    const second = await MemoryBloomDedupStore.open({ capacity: 50_000, errorRate: 1e-4, snapshot: { file } });
    expect(second.hasSync(keys).every(Boolean)).toBe(true);
    expect(second.addSync(keys).some(Boolean)).toBe(false);
    expect(await second.stats()).toMatchObject({ itemsAdded: (await first.stats()).itemsAdded, filtered: 7 });
    expect(second.hasSync(fps('fresh', 1000)).filter(Boolean).length).toBeLessThan(5);
    await second.close();
  });

  it('saves to and restores from a Crawlee key-value store, also on persistState', async () => {
    const config = new Configuration({ persistStorage: false });
    const kvs = await KeyValueStore.open(`bloom-${Date.now()}`, { config });
    const first = await MemoryBloomDedupStore.open({ capacity: 10_000, errorRate: 1e-3, snapshot: { keyValueStore: kvs, key: 'SEEN' } });
    first.addSync(fps('kvs', 5000));
    Configuration.getEventManager().emit('persistState', { isMigrating: false });
    await new Promise((r) => setTimeout(r, 100));
    expect(Buffer.isBuffer(await kvs.getValue('SEEN'))).toBe(true);
    const second = await MemoryBloomDedupStore.open({ capacity: 10_000, errorRate: 1e-3, snapshot: { keyValueStore: kvs, key: 'SEEN' } });
    expect(second.hasSync(fps('kvs', 5000)).every(Boolean)).toBe(true);
    await first.close();
    await second.close();
    await kvs.drop();
  });

  it('refuses a snapshot of other parameters or a foreign file', async () => {
    const file = join(dir, 'other.bin');
    const store = new MemoryBloomDedupStore({ capacity: 1000, errorRate: 0.01 });
    store.addSync(['x']);
    await store.save({ file });
    await expect(MemoryBloomDedupStore.open({ capacity: 2000, errorRate: 0.01, snapshot: { file } })).rejects.toBeInstanceOf(
      IncompatibleFilterError,
    );
    await writeFile(join(dir, 'junk.bin'), 'not a filter');
    await expect(
      MemoryBloomDedupStore.open({ capacity: 1000, errorRate: 0.01, snapshot: { file: join(dir, 'junk.bin') } }),
    ).rejects.toBeInstanceOf(InvalidSnapshotError);
    const truncated = (await readFile(file)).subarray(0, 100);
    await writeFile(join(dir, 'short.bin'), truncated);
    await expect(
      MemoryBloomDedupStore.open({ capacity: 1000, errorRate: 0.01, snapshot: { file: join(dir, 'short.bin') } }),
    ).rejects.toMatchObject({ code: 'INVALID_SNAPSHOT' });
    // No snapshot yet: an empty filter.
    const empty = await MemoryBloomDedupStore.open({ capacity: 1000, errorRate: 0.01, snapshot: { file: join(dir, 'none.bin') }, autoSave: false });
    expect(empty.hasSync(['x'])).toEqual([false]);
  });

  it('is unusable after close', async () => {
    const store = new MemoryBloomDedupStore({ capacity: 10, errorRate: 0.1 });
    await store.close();
    await expect(store.add(['a'])).rejects.toMatchObject({ code: 'STORE_CLOSED' });
  });
});
