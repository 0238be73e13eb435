import { Request } from 'crawlee';
import { defineCliCommand } from '../define-command.js';
import { CliUsageError } from '../errors/cli-usage-error.js';

function candidates(value: string): string[] {
  if (!/^https?:\/\//i.test(value)) return [value];
  // A URL: the key as given, and the uniqueKey Crawlee computes for it by default (normalizeUrl).
  try {
    const crawlee = new Request({ url: value }).uniqueKey;
    return crawlee === value ? [value] : [value, crawlee];
  } catch {
    return [value];
  }
}

/**
 * `crawlee-redis forget <queue> <url|uniqueKey>... [--dedup-key <key>]`: removes requests from the queue (pending,
 * locked, handled or failed) so the same uniqueKey can be added again. A URL is tried as given and as Crawlee's
 * default uniqueKey. `--dedup-key` also removes the keys from a Redis set dedup store (crawlee-bloom-dedup's
 * `RedisSetDedupStore`, members = uniqueKeys, as `withDedup` stores them by default); a Bloom filter cannot forget,
 * so a key that is not a set is refused before anything changes.
 */
export const forgetCommand = defineCliCommand(
  'forget',
  (c) =>
    c
      .description('remove requests (pending, locked, handled or failed) by URL or uniqueKey so they can be added again')
      .argument('<queue>', 'queue name')
      .argument('<keys...>', 'URLs or uniqueKeys')
      .option('--dedup-key <key>', 'also remove them from this Redis set dedup store (RedisSetDedupStore key)'),
  async (ctx, [name, keys], options) => {
    const admin = await ctx.admin(name as string);
    const given = keys as string[];
    const dedupKey = options.dedupKey as string | undefined;
    const redis = await ctx.redis();
    if (dedupKey !== undefined) {
      const type = await redis.type(dedupKey);
      if (type !== 'set' && type !== 'none') {
        throw new CliUsageError(`--dedup-key ${dedupKey} is a Redis ${type}, not a set store: a Bloom filter cannot forget keys (its bits are shared); nothing was changed`);
      }
    }
    await ctx.confirm(`forget ${given.length} request(s) of queue "${name as string}"`, name as string);
    const results = [];
    for (const key of given) {
      const all = candidates(key);
      const { forgotten, keptAsBits } = await admin.forget(all);
      const removedFromStore = dedupKey === undefined ? undefined : (await redis.srem(dedupKey, ...all)) > 0;
      // keptAsBits only when true: a handled request of a 'bits' queue (JSON output unchanged otherwise).
      results.push({ key, forgotten: forgotten.length > 0, uniqueKeys: forgotten, ...(keptAsBits.length > 0 ? { keptAsBits: true } : {}), ...(removedFromStore === undefined ? {} : { removedFromStore }) });
    }
    const attached = (await admin.crawlStats()).dedupKey;
    if (attached && dedupKey === undefined) {
      ctx.warn(`the workers filter adds through a dedup store (counters at ${attached}) that still holds these keys; for a set store pass --dedup-key <its key>`);
    }
    if (ctx.json) return ctx.printJson({ queue: name, results, dedupStore: dedupKey ?? null });
    for (const r of results) {
      const state = r.forgotten ? 'forgotten' : r.keptAsBits ? "handled, kept (a handledRequests 'bits' queue cannot forget handled requests)" : 'not in queue';
      ctx.print(`${state}${r.removedFromStore ? ' (and in the dedup store)' : ''}  ${r.key}`);
    }
  },
  true,
);
