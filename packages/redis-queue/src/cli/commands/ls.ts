import { queueIndexKey } from '../../redis/keys.js';
import { KeyTypeError } from '../../errors/key-type-error.js';
import { defineCliCommand } from '../define-command.js';
import { table } from '../format.js';

/** `crawlee-redis ls`: every queue under the key prefix with its counters and live workers. */
export const lsCommand = defineCliCommand(
  'ls',
  (c) => c.description('list the queues under the key prefix, with counts'),
  async (ctx) => {
    const redis = await ctx.redis();
    const names = (await redis.smembers(queueIndexKey(ctx.keyPrefix))).sort();
    const rows = [];
    for (const name of names) {
      // A queue whose metadata another program overwrote cannot be listed; the others still are.
      const admin = await ctx.admin(name, false).catch((error: unknown) => {
        if (!(error instanceof KeyTypeError)) throw error;
        ctx.io.stderr.write(`skipped ${name}: its meta is not a hash\n`);
      });
      if (!admin) continue;
      const [stats, workers] = await Promise.all([admin.stats(), admin.workers()]);
      rows.push({ name, ...stats, workersAlive: workers.filter((w) => w.state === 'alive').length });
    }
    if (ctx.json) return ctx.printJson(rows);
    if (rows.length === 0) return ctx.print(`no queues under key prefix "${ctx.keyPrefix}"`);
    ctx.print(
      table(
        ['QUEUE', 'TOTAL', 'PENDING', 'LOCKED', 'HANDLED', 'DEAD', 'WORKERS'],
        rows.map((r) => [r.name, r.total, r.pending, r.locked, r.handled, r.deadLetters, r.workersAlive]),
      ),
    );
  },
);
