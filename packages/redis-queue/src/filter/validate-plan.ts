import type { EnqueueFilterPlan } from '@crawlee-distributed/redis-kit/seam';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';

const OFFSET = /^(0|[1-9][0-9]{0,9})$/;
const MAX_OFFSET = 2 ** 32 - 1;

/**
 * Checks an enqueue filter plan before it reaches the add script (a Lua error half-way through a batch would leave
 * the earlier writes of that batch in place, so nothing malformed may get that far).
 *
 * @param plan - the plan the dedup store produced
 * @param count - number of requests in the batch
 * @throws {@link InvalidOptionsError} when the plan does not follow docs/enqueue-filter-seam.md
 */
export function validateEnqueueFilterPlan(plan: EnqueueFilterPlan, count: number): void {
  const fail = (what: string) => {
    throw new InvalidOptionsError(`enqueue filter plan is not valid (${what}); the dedup store does not follow enqueue-filter-seam@1`);
  };
  if (!plan || !Array.isArray(plan.keys) || !Array.isArray(plan.ops)) fail('keys and ops must be arrays');
  if (plan.keys.some((k) => typeof k !== 'string' || k === '')) fail('keys must be non-empty strings');
  if (plan.ops.length !== count) fail(`${plan.ops.length} ops for ${count} requests`);
  const validKey = (i: unknown) => Number.isInteger(i) && (i as number) >= 0 && (i as number) < plan.keys.length;
  plan.ops.forEach((op, i) => {
    if (!validKey(op?.key)) fail(`ops[${i}].key is not an index into keys`);
    if (op.type === 'bits') {
      if (!Array.isArray(op.offsets) || op.offsets.length === 0) fail(`ops[${i}].offsets must be a non-empty array`);
      for (const offset of op.offsets!) {
        if (typeof offset !== 'string' || !OFFSET.test(offset) || Number(offset) > MAX_OFFSET) {
          fail(`ops[${i}] offset ${JSON.stringify(offset)} is not a decimal string below 2^32`);
        }
      }
    } else if (op.type === 'member') {
      if (typeof op.member !== 'string') fail(`ops[${i}].member must be a string`);
    } else {
      fail(`ops[${i}].type ${JSON.stringify(op.type)} is neither 'bits' nor 'member'`);
    }
  });
  if (plan.counter !== undefined) {
    const { key, newField, filteredField } = plan.counter;
    if (!validKey(key) || typeof newField !== 'string' || typeof filteredField !== 'string') fail('counter is malformed');
  }
}
