import { describe, expect, it } from 'vitest';
import { FilterTooLargeError } from '../errors/filter-too-large-error.js';
import { InvalidDedupOptionsError } from '../errors/invalid-dedup-options-error.js';
import { bloomParameters, estimatedFalsePositiveRate } from './parameters.js';

describe('bloomParameters', () => {
  it('sizes from capacity and error rate: m = -n ln p / ln^2 2, k = round(m/n ln 2)', () => {
    const p = bloomParameters({ capacity: 1_000_000, errorRate: 1e-6 });
    expect(p.bits).toBe(28_755_176);
    expect(p.hashes).toBe(20);
    expect(p.blocks).toBe(1);
    const q = bloomParameters({ capacity: 1_000_000, errorRate: 1e-3 });
    expect(q.bits).toBe(14_377_592); // 14,377,588 rounded up to whole bytes
    expect(q.hashes).toBe(10);
    // Within 1.1x of the optimal bits per key.
    expect(p.bits / 1_000_000 / (-Math.log(1e-6) / Math.LN2 ** 2)).toBeLessThan(1.001);
  });

  it('the estimated false-positive rate at capacity is the target', () => {
    for (const errorRate of [0.1, 0.01, 1e-3, 1e-6]) {
      const p = bloomParameters({ capacity: 100_000, errorRate });
      const estimated = estimatedFalsePositiveRate(p, 100_000);
      expect(estimated / errorRate).toBeGreaterThan(0.9);
      expect(estimated / errorRate).toBeLessThan(1.1);
      expect(estimatedFalsePositiveRate(p, 0)).toBe(0);
    }
  });

  it('rejects what bloom-filters silently accepts (n = 0, p outside (0, 1), NaN)', () => {
    for (const capacity of [0, -5, 1.5, Number.NaN, Infinity, '10' as unknown as number]) {
      expect(() => bloomParameters({ capacity, errorRate: 0.01 })).toThrow(InvalidDedupOptionsError);
    }
    for (const errorRate of [0, 1, 1.5, -0.1, Number.NaN, undefined as unknown as number]) {
      expect(() => bloomParameters({ capacity: 1000, errorRate })).toThrow(InvalidDedupOptionsError);
    }
    expect(() => bloomParameters({ capacity: 1000, errorRate: 0.01, blocks: 0 })).toThrow(InvalidDedupOptionsError);
  });

  it('splits filters above 2^32 bits into blocks and refuses blocks above 2^32 bits', () => {
    const p = bloomParameters({ capacity: 1e9, errorRate: 1e-4 });
    expect(p.blocks).toBe(5);
    expect(p.blockBits).toBeLessThanOrEqual(2 ** 32);
    expect(p.bits).toBeGreaterThanOrEqual(1.917e10);
    const error = (() => {
      try {
        bloomParameters({ capacity: 1e9, errorRate: 1e-4, blocks: 4 });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(FilterTooLargeError);
    expect((error as FilterTooLargeError).code).toBe('FILTER_TOO_LARGE');
    expect((error as Error).message).toMatch(/at least 5/);
  });
});
