import { describe, expect, it } from 'vitest';
import { FilterTooLargeError } from '../errors/filter-too-large-error.js';
import { InvalidDedupOptionsError } from '../errors/invalid-dedup-options-error.js';
import { MemoryBloomDedupStore } from './memory-bloom-dedup-store.js';

describe('MemoryBloomDedupStore size limit', () => {
  it('refuses capacity 1e15 with FilterTooLargeError before allocating', () => {
    const heapBefore = process.memoryUsage().arrayBuffers;
    expect(() => new MemoryBloomDedupStore({ capacity: 1e15, errorRate: 1e-9 })).toThrow(FilterTooLargeError);
    expect(process.memoryUsage().arrayBuffers - heapBefore).toBeLessThan(64 * 2 ** 20);
  });

  it('refuses a filter above the 2 GiB default (1e9 keys at 1e-6, 3.35 GiB) unless maxFilterBytes allows it', () => {
    expect(() => new MemoryBloomDedupStore({ capacity: 1e9, errorRate: 1e-6 })).toThrow(/maxFilterBytes/);
    expect(() => new MemoryBloomDedupStore({ capacity: 1e6, errorRate: 1e-6, maxFilterBytes: 1024 })).toThrow(
      FilterTooLargeError,
    );
    const store = new MemoryBloomDedupStore({ capacity: 1e5, errorRate: 1e-6, maxFilterBytes: 1e6 });
    expect(store.parameters.bits / 8).toBeLessThanOrEqual(1e6);
  });

  it('refuses a maxFilterBytes above what one Uint8Array holds (4 GiB)', () => {
    expect(() => new MemoryBloomDedupStore({ capacity: 10, errorRate: 0.01, maxFilterBytes: 8 * 2 ** 30 })).toThrow(
      InvalidDedupOptionsError,
    );
  });
});
