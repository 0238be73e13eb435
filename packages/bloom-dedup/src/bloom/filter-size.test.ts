import { describe, expect, it } from 'vitest';
import { FilterTooLargeError } from '../errors/filter-too-large-error.js';
import { InvalidDedupOptionsError } from '../errors/invalid-dedup-options-error.js';
import { bloomParameters, DEFAULT_MAX_FILTER_BYTES, MAX_BLOCKS } from './parameters.js';

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('total filter size limit (maxFilterBytes)', () => {
  it('refuses capacity 1e15 at p = 1e-9 by its total size, saying the GiB and what to do', () => {
    const error = thrown(() => bloomParameters({ capacity: 1e15, errorRate: 1e-9 }));
    expect(error).toBeInstanceOf(FilterTooLargeError);
    expect((error as FilterTooLargeError).code).toBe('FILTER_TOO_LARGE');
    expect((error as FilterTooLargeError).bytes).toBeGreaterThan(5e6 * 2 ** 30);
    expect((error as Error).message).toMatch(/[\d,]+ GiB/);
    expect((error as Error).message).toMatch(/capacity/);
    expect((error as Error).message).toMatch(/errorRate/);
    expect((error as Error).message).toMatch(/maxFilterBytes/);
  });

  it('accepts 1e9 keys at p = 1e-6 (about 3.6 GB) under the 16 GiB default', () => {
    const p = bloomParameters({ capacity: 1e9, errorRate: 1e-6 });
    expect(p.bits / 8).toBeGreaterThan(3.5e9);
    expect(p.bits / 8).toBeLessThanOrEqual(DEFAULT_MAX_FILTER_BYTES);
  });

  it('applies a lower or higher maxFilterBytes', () => {
    expect(() => bloomParameters({ capacity: 1e9, errorRate: 1e-6, maxFilterBytes: 2 ** 30 })).toThrow(FilterTooLargeError);
    const p = bloomParameters({ capacity: 1e10, errorRate: 1e-6, maxFilterBytes: 64 * 2 ** 30 });
    expect(p.bits / 8).toBeGreaterThan(DEFAULT_MAX_FILTER_BYTES);
  });

  it('caps the block count even when maxFilterBytes is unlimited', () => {
    const error = thrown(() => bloomParameters({ capacity: 1e15, errorRate: 1e-9, maxFilterBytes: Infinity }));
    expect(error).toBeInstanceOf(FilterTooLargeError);
    expect((error as Error).message).toContain(String(MAX_BLOCKS));
  });

  it('rejects a maxFilterBytes that is not a positive number', () => {
    for (const bad of [0, -1, NaN, '16GB']) {
      expect(() => bloomParameters({ capacity: 10, errorRate: 0.01, maxFilterBytes: bad as number })).toThrow(
        InvalidDedupOptionsError,
      );
    }
  });
});
