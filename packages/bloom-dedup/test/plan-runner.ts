import type { Cluster, Redis } from 'ioredis';
import type { EnqueueFilterPlan } from '../src/internal.js';
import RUNNER from './plan-runner.lua';

/** Runs a plan in one script (plan-runner.lua, which includes the kit's bloom-bits fragment); per op, true = new. */
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
