import { UnsupportedOperationError } from '../../errors/unsupported-operation-error.js';
import { defineCliCommand } from '../define-command.js';
import { keyValues } from '../format.js';

/**
 * `crawlee-redis failed <queue> [--requeue]`: today the crawl-wide count of requests that failed for good (from
 * the worker stats). Listing and requeueing them needs a failed-request index in the queue, which is being built:
 * `--list` and `--requeue` fail with "not supported yet" until then.
 */
export const failedCommand = defineCliCommand(
  'failed',
  (c) =>
    c
      .description('requests that failed for good: the count today; listing and --requeue need the failed-request index (not supported yet)')
      .argument('<queue>', 'queue name')
      .option('--list', 'list them (not supported yet)')
      .option('--requeue', 'put them back into the queue (not supported yet)'),
  async (ctx, [name], options) => {
    const admin = await ctx.admin(name as string);
    if (options.list || options.requeue) {
      throw new UnsupportedOperationError(
        `failed ${options.requeue ? '--requeue' : '--list'} is not supported yet: this queue version does not index failed requests (they are stored as handled); \`crawlee-redis failed ${name as string}\` shows how many failed, as counted by the workers`,
      );
    }
    const crawl = await admin.crawlStats();
    if (ctx.json) return ctx.printJson({ queue: name, failed: crawl.failed, retried: crawl.retried, listSupported: false });
    ctx.print(keyValues([['queue', name as string], ['failed', crawl.failed], ['retried', crawl.retried]]));
    ctx.print('(counted by the workers; listing and requeueing failed requests is not supported yet)');
  },
);
