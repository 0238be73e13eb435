import { describe, expect, it } from 'vitest';
import { InvalidDatasetItemError } from './errors/invalid-dataset-item-error.js';
import { normalizeItems } from './normalize-items.js';

describe('normalizeItems', () => {
  it('accepts what Dataset.pushData sends: objects, JSON strings, arrays of either', () => {
    expect(normalizeItems({ a: 1 })).toEqual(['{"a":1}']);
    expect(normalizeItems('[{"a":1},{"b":2}]')).toEqual(['{"a":1}', '{"b":2}']);
    expect(normalizeItems([{ a: 1 }, '{"b":2}'])).toEqual(['{"a":1}', '{"b":2}']);
    expect(normalizeItems([])).toEqual([]);
  });

  it('rejects anything that is not a JSON object, naming the item', () => {
    for (const bad of [5, null, 'nope', '[[1]]', [{ a: 1 }, 'true'], ['{"a":1}', [2]]]) {
      expect(() => normalizeItems(bad), JSON.stringify(bad)).toThrow(InvalidDatasetItemError);
    }
    expect(() => normalizeItems([{ a: 1 }, 7])).toThrow(/item 1 must be a JSON object \(got number\)/);
  });
});
