import { defineCliCommand } from '../define-command.js';

/** `crawlee-redis purge <queue>`: removes requests, locks and dead letters; the queue stays. */
export const purgeCommand = defineCliCommand(
  'purge',
  (c) => c.description('remove every request, lock and dead letter of a queue and reset its counters (the queue stays)').argument('<queue>', 'queue name'),
  async (ctx, [name]) => {
    const admin = await ctx.admin(name as string);
    const { total } = await admin.stats();
    await ctx.confirm(`purge queue "${name as string}" (${total} requests)`, name as string);
    const removed = await admin.purge();
    if (ctx.json) return ctx.printJson({ queue: name, removed });
    ctx.print(`purged queue "${name as string}": ${removed} request(s) removed`);
  },
  true,
);
