import { Request } from 'crawlee';
import { defineCliCommand } from '../define-command.js';

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
 * `crawlee-redis forget <queue> <url|uniqueKey>...`: removes requests from the queue so the same uniqueKey can be
 * added again. A URL is tried as given and as Crawlee's default uniqueKey. A dedup store in front of the queue keeps
 * its keys: forgetting there is not supported yet (a Bloom filter cannot forget).
 */
export const forgetCommand = defineCliCommand(
  'forget',
  (c) =>
    c
      .description('remove requests (pending, locked or handled) by URL or uniqueKey so they can be added again')
      .argument('<queue>', 'queue name')
      .argument('<keys...>', 'URLs or uniqueKeys'),
  async (ctx, [name, keys], _options) => {
    const admin = await ctx.admin(name as string);
    const given = keys as string[];
    await ctx.confirm(`forget ${given.length} request(s) of queue "${name as string}"`, name as string);
    const results = [];
    for (const key of given) {
      const { forgotten } = await admin.forget(candidates(key));
      results.push({ key, forgotten: forgotten.length > 0, uniqueKeys: forgotten });
    }
    const { dedupKey } = await admin.crawlStats();
    if (dedupKey) {
      ctx.warn(`the dedup store ${dedupKey} still holds these keys, so the workers' enqueue filter still drops them; forgetting in a dedup store is not supported yet`);
    }
    if (ctx.json) return ctx.printJson({ queue: name, results, dedupStore: dedupKey ?? null });
    for (const r of results) ctx.print(`${r.forgotten ? 'forgotten' : 'not in queue'}  ${r.key}`);
  },
  true,
);
