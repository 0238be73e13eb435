import { describe, expect, it } from 'vitest';
import type { EnqueueFilterPlan } from '@crawlee-distributed/redis-kit/seam';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { validateEnqueueFilterPlan } from './validate-plan.js';

const good: EnqueueFilterPlan = {
  keys: ['{q}:bloom', '{q}:seen', '{q}:stats'],
  ops: [
    { type: 'bits', key: 0, offsets: ['0', '4294967295'] },
    { type: 'member', key: 1, member: 'abc' },
  ],
  counter: { key: 2, newField: 'n', filteredField: 'f' },
};

describe('validateEnqueueFilterPlan', () => {
  it('accepts a plan that follows the seam', () => {
    expect(() => validateEnqueueFilterPlan(good, 2)).not.toThrow();
  });

  it.each<[string, EnqueueFilterPlan, number]>([
    ['op count differs from the batch', good, 3],
    ['offset of 2^32', { ...good, ops: [{ type: 'bits', key: 0, offsets: ['4294967296'] }, good.ops[1]!] }, 2],
    ['offset not decimal', { ...good, ops: [{ type: 'bits', key: 0, offsets: ['1e3'] }, good.ops[1]!] }, 2],
    ['key index out of range', { ...good, ops: [good.ops[0]!, { type: 'member', key: 3, member: 'x' }] }, 2],
    ['unknown type', { ...good, ops: [good.ops[0]!, { type: 'cuckoo' as 'bits', key: 1 }] }, 2],
    ['member missing', { ...good, ops: [good.ops[0]!, { type: 'member', key: 1 }] }, 2],
    ['counter key out of range', { ...good, counter: { key: 9, newField: 'n', filteredField: 'f' } }, 2],
  ])('rejects a plan with %s', (_what, plan, count) => {
    expect(() => validateEnqueueFilterPlan(plan, count)).toThrow(InvalidOptionsError);
  });
});
