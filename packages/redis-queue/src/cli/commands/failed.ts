import { defineCliCommand } from '../define-command.js';
import { CliUsageError } from '../errors/cli-usage-error.js';
import { keyValues } from '../format.js';

function intOption(name: string, value: unknown, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new CliUsageError(`${name} must be an integer from ${min} to ${max} (got ${String(value)})`);
  return n;
}

/**
 * `crawlee-redis failed <queue> [--list] [--requeue]`: requests that failed for good, from the queue's failed index
 * (written by the queue atomically with the handled mark). Without flags: how many, and the workers' counts.
 * `--list` prints them (oldest failure first, `--limit`); `--requeue` puts them (or `--id` ones) back into the queue
 * with retryCount 0, error messages kept unless `--clear-errors`.
 */
export const failedCommand = defineCliCommand(
  'failed',
  (c) =>
    c
      .description('requests that failed for good: count, --list, or --requeue them (back to pending, retryCount 0)')
      .argument('<queue>', 'queue name')
      .option('--list', 'list them, oldest failure first')
      .option('--limit <n>', 'with --list: at most this many (1 to 10000)', '100')
      .option('--requeue', 'put them back into the queue (pending, retryCount 0, handledAt removed)')
      .option('--id <ids...>', 'with --requeue: only these request ids')
      .option('--clear-errors', 'with --requeue: clear errorMessages too (default: keep them)'),
  async (ctx, [name], options) => {
    if (options.list && options.requeue) throw new CliUsageError('--list and --requeue exclude each other: list first, then requeue');
    const limit = intOption('--limit', options.limit, 1, 10_000);
    const admin = await ctx.admin(name as string);
    if (options.requeue) {
      const ids = options.id as string[] | undefined;
      await ctx.confirm(`requeue ${ids ? ids.length : 'every'} failed request(s) of queue "${name as string}"`, name as string);
      const result = await admin.requeueFailed({ ...(ids ? { ids } : {}), clearErrorMessages: options.clearErrors === true });
      if (ctx.json) return ctx.printJson({ queue: name, ...result });
      ctx.print(keyValues([['queue', name as string], ['requeued', result.requeued], ['already queued again', result.alreadyQueued], ['skipped (not a request)', result.skipped], ['not failed', result.missing]]));
      return;
    }
    if (options.list) {
      const list = await admin.failed({ limit });
      const rows = list.map((f) => ({ id: f.id, url: f.url, uniqueKey: f.uniqueKey, failedAt: f.failedAt.toISOString(), state: f.state, retryCount: f.retryCount, lastError: f.errorMessages?.at(-1) }));
      if (ctx.json) return ctx.printJson(rows);
      for (const r of rows) ctx.print(`${r.failedAt}  ${r.state.padEnd(9)}  ${r.url ?? r.id}${r.lastError ? `  (${r.lastError.split('\n')[0]})` : ''}`);
      return;
    }
    const [count, crawl] = await Promise.all([admin.failedCount(), admin.crawlStats()]);
    if (ctx.json) return ctx.printJson({ queue: name, failed: count, countedByWorkers: crawl.failed, retried: crawl.retried });
    ctx.print(keyValues([['queue', name as string], ['failed', count], ['failed (counted by workers)', crawl.failed], ['retried', crawl.retried]]));
  },
  true,
);
