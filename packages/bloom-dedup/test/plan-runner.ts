import type { Cluster, Redis } from 'ioredis';
import type { EnqueueFilterPlan } from '../src/internal.js';

/**
 * Test-only stand-in for the filter part of crawlee-redis-queue's add script, applying a plan exactly as
 * docs/enqueue-filter-seam.md says: 'bits' reads every offset (GETBIT), all 1 = filtered, otherwise sets every
 * offset = new; 'member' SADD 1 = new, 0 = filtered; the counter hash gets newField / filteredField HINCRBYed
 * (skipped when zero). One EVAL, so it is atomic like the real script.
 *
 * ARGV: counterKeyIndex (0 = none), newField, filteredField, then per op: type, keyIndex, n, n offsets | member.
 * Returns 1 (new) / 0 (filtered) per op.
 */
const RUNNER = `
local counterKey = tonumber(ARGV[1])
local newField, filteredField = ARGV[2], ARGV[3]
local i = 4
local results, added, filtered = {}, 0, 0
while i <= #ARGV do
  local kind, key = ARGV[i], KEYS[tonumber(ARGV[i + 1])]
  local isNew = 0
  if kind == 'bits' then
    local n = tonumber(ARGV[i + 2])
    for j = 1, n do
      if redis.call('GETBIT', key, ARGV[i + 2 + j]) == 0 then isNew = 1 end
    end
    if isNew == 1 then
      for j = 1, n do redis.call('SETBIT', key, ARGV[i + 2 + j], 1) end
    end
    i = i + 3 + n
  else
    isNew = redis.call('SADD', key, ARGV[i + 2])
    i = i + 3
  end
  results[#results + 1] = isNew
  if isNew == 1 then added = added + 1 else filtered = filtered + 1 end
end
if counterKey > 0 then
  if added > 0 then redis.call('HINCRBY', KEYS[counterKey], newField, added) end
  if filtered > 0 then redis.call('HINCRBY', KEYS[counterKey], filteredField, filtered) end
end
return results
`;

/** Runs a plan in one script; per op, true = new. */
export async function runPlan(redis: Redis | Cluster, plan: EnqueueFilterPlan): Promise<boolean[]> {
  const args: string[] = [
    String(plan.counter ? plan.counter.key + 1 : 0),
    plan.counter?.newField ?? '',
    plan.counter?.filteredField ?? '',
  ];
  for (const op of plan.ops) {
    if (op.type === 'bits') args.push('bits', String(op.key + 1), String(op.offsets!.length), ...op.offsets!);
    else args.push('member', String(op.key + 1), op.member!);
  }
  const reply = (await redis.eval(RUNNER, plan.keys.length, ...plan.keys, ...args)) as number[];
  return reply.map((v) => v === 1);
}
