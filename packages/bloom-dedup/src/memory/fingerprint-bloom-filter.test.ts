import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import bloomFilters from 'bloom-filters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForgetUnsupportedError } from '../errors/forget-unsupported-error.js';
import { FingerprintBloomFilter } from './fingerprint-bloom-filter.js';
import { FingerprintHashing } from './fingerprint-hashing.js';
import { MemoryBloomDedupStore } from './memory-bloom-dedup-store.js';

const fp = (prefix: string, i: number) => createHash('sha1').update(`${prefix}-${i}`).digest('hex');
const fps = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => fp(prefix, i));
/** Half fingerprints (their own bytes), half plain strings (SHA-1 hashed first): both index paths. */
const mixed = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => (i % 2 === 0 ? fp(prefix, i) : `https://${prefix}.example/${i}`));

/** Indexes of the keys a store says it has (its false positives, for keys never added). */
const positives = (store: MemoryBloomDedupStore, keys: string[]) =>
  store.hasSync(keys).flatMap((seen, i) => (seen ? [i] : []));

describe('FingerprintBloomFilter (bloom-filters reached through its public API and by subclassing)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bloom-subclass-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is a bloom-filters BloomFilter whose own has() uses the fingerprint hashing', () => {
    const filter = new FingerprintBloomFilter(10_000, 7);
    expect(filter).toBeInstanceOf(bloomFilters.BloomFilter);
    expect(filter._hashing).toBeInstanceOf(FingerprintHashing);
    const key = fp('k', 1);
    expect(filter.testAndSet(key)).toBeGreaterThan(0);
    expect(filter.has(key)).toBe(true);
    expect(filter.testAndSet(key)).toBe(0);
    // The bits are where FingerprintHashing puts them, not where bloom-filters' default xxhash would.
    const plain = new bloomFilters.BloomFilter(10_000, 7);
    plain.add(key);
    expect(Buffer.from(filter.bytes).equals(Buffer.from(plain._filter.array))).toBe(false);
  });

  it('the store writes no bloom-filters member from outside (only the subclass touches _filter / _hashing)', async () => {
    const source = await readFile(fileURLToPath(new URL('./memory-bloom-dedup-store.ts', import.meta.url)), 'utf8');
    expect(source).not.toMatch(/\._(filter|hashing|size|nbHashes|seed)\b/);
  });

  it('store snapshot round trip: every key added before is still seen, and fresh keys give the same false positives', async () => {
    const file = join(dir, 'round-trip.bin');
    // Small filter at a high error rate, so fresh keys produce many false positives to compare.
    const options = { capacity: 5000, errorRate: 0.05 };
    const first = new MemoryBloomDedupStore(options);
    const members = mixed('member', 5000);
    first.addSync(members);
    await first.save({ file });
    const restored = await MemoryBloomDedupStore.open({ ...options, snapshot: { file }, autoSave: false });
    expect(restored.hasSync(members).every(Boolean)).toBe(true);
    // bloom-filters' own has() (through the restored filter's hashing) agrees.
    expect(members.every((m) => restored.filter.has(m))).toBe(true);
    const fresh = mixed('fresh', 20_000);
    const before = positives(first, fresh);
    expect(before.length).toBeGreaterThan(200); // about 5 % of 20,000
    expect(positives(restored, fresh)).toEqual(before);
    // Control: the same bits read through bloom-filters' default hashing miss most members.
    const plain = new bloomFilters.BloomFilter(restored.parameters.bits, restored.parameters.hashes);
    const bits = new bloomFilters.BitSet(restored.parameters.bits);
    bits.array.set(restored.filter.bytes);
    plain._filter = bits; // (test-only) a plain BloomFilter on the same bits
    expect(members.filter((m) => plain.has(m)).length).toBeLessThan(members.length / 2);
  });

  it('bloom-filters JSON round trip keeps the hashing through FingerprintBloomFilter.fromJSON (the base class loses it)', () => {
    const filter = new FingerprintBloomFilter(50_000, 5);
    const members = fps('json', 3000);
    for (const m of members) filter.testAndSet(m);
    filter.seed = 42;
    const json = filter.saveAsJSON() as JSON;
    const back = FingerprintBloomFilter.fromJSON(json);
    expect(back).toBeInstanceOf(FingerprintBloomFilter);
    expect(back.seed).toBe(42);
    expect(members.every((m) => back.has(m))).toBe(true);
    expect(Buffer.from(back.bytes).equals(Buffer.from(filter.bytes))).toBe(true);
    const lost = bloomFilters.BloomFilter.fromJSON(json) as InstanceType<typeof bloomFilters.BloomFilter>;
    expect(members.filter((m) => lost.has(m)).length).toBeLessThan(members.length / 2);
  });

  it('loadBytes refuses a bit array of another length', () => {
    const filter = new FingerprintBloomFilter(1000, 3);
    expect(() => filter.loadBytes(new Uint8Array(10))).toThrow(RangeError);
  });

  it('forget() on the memory Bloom store rejects with ForgetUnsupportedError and changes nothing', async () => {
    const store = new MemoryBloomDedupStore({ capacity: 100, errorRate: 0.01 });
    await store.add(['a']);
    const error = await store.forget(['a']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForgetUnsupportedError);
    expect((error as Error).message).toMatch(/RedisSetDedupStore.*rotate/s);
    expect(store.canForget).toBe(false);
    expect(await store.has(['a'])).toEqual([true]);
  });
});
