import type { WorkerInfo } from '../../stats/read-worker-stats.js';
import { defineCliCommand } from '../define-command.js';
import { formatAge, table } from '../format.js';

/**
 * The worker table of `workers` and `watch`.
 *
 * @param workers - the workers
 * @param now - current time in ms
 */
export function workerTable(workers: WorkerInfo[], now: number): string {
  return table(
    ['WORKER', 'STATE', 'HANDLED', 'FAILED', 'RETRIED', 'LOCKS', 'LAPSES', 'REQ/S', 'UP', 'LAST SEEN'],
    workers.map((w) => [
      w.id,
      w.state,
      w.handled,
      w.failed,
      w.retried,
      w.locks,
      w.lapses,
      w.rate.toFixed(1),
      w.startedAt ? formatAge(w.lastSeen.getTime() - w.startedAt.getTime()) : '-',
      `${formatAge(now - w.lastSeen.getTime())} ago`,
    ]),
  );
}

/** `crawlee-redis workers <queue>`: the workers that published stats, alive, stopped and dead. */
export const workersCommand = defineCliCommand(
  'workers',
  (c) => c.description('workers of a queue: alive, stopped and dead, with counters and rate').argument('<queue>', 'queue name'),
  async (ctx, [name]) => {
    const admin = await ctx.admin(name as string);
    const workers = await admin.workers();
    if (ctx.json) return ctx.printJson(workers);
    if (workers.length === 0) return ctx.print(`no worker has published stats on queue "${name as string}" (workers publish from their first lock on, unless workerStats: false)`);
    ctx.print(workerTable(workers, Date.now()));
  },
);
