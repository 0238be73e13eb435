import { listQueueNames } from '../../core/queue-index.js';
import { wrongTypeErrorOf } from '../../errors/wrong-type-error-of.js';
import { QueueMetadataCorruptError } from '../../errors/queue-metadata-corrupt-error.js';
import { defineCliCommand } from '../define-command.js';
import { table } from '../format.js';

/** `crawlee-redis ls`: every queue under the key prefix with its counters and live workers. */
export const lsCommand = defineCliCommand(
  'ls',
  (c) => c.description('list the queues under the key prefix, with counts'),
  async (ctx) => {
    const redis = await ctx.redis();
    const names = await listQueueNames(redis, ctx.keyPrefix);
    const rows = [];
    for (const name of names) {
      // A queue whose keys another program overwrote (another type, or a counter that is not a number) cannot be
      // listed; the others still are, and stderr says which was skipped and why.
      const read = await (async () => {
        const admin = await ctx.admin(name, false);
        return Promise.all([admin.stats(), admin.workers()]);
      })().catch((error: unknown) => {
        if (error instanceof QueueMetadataCorruptError) {
          ctx.io.stderr.write(`skipped ${name}: ${error.message}\n`);
          return;
        }
        const wrong = wrongTypeErrorOf(error);
        if (!wrong) throw error;
        const what = wrong.key?.endsWith('}:meta') ? 'its meta is not a hash' : 'one of its keys holds another Redis type';
        ctx.io.stderr.write(`skipped ${name}: ${what}\n`);
      });
      if (!read) continue;
      const [stats, workers] = read;
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
