import { defineCliCommand } from '../define-command.js';

/** `crawlee-redis drop <queue>`: deletes every key of the queue's hash tag (dedup keys with that tag included). */
export const dropCommand = defineCliCommand(
  'drop',
  (c) =>
    c
      .description("delete a queue: every key with the queue's hash tag, worker stats and dedup keys included (the start-URL feed list is kept)")
      .argument('<queue>', 'queue name'),
  async (ctx, [name]) => {
    const admin = await ctx.admin(name as string, false);
    const { total } = await admin.stats();
    await ctx.confirm(`drop queue "${name as string}" (${total} requests, every key of hash tag ${admin.keys.tag})`, name as string);
    const { dedupKey } = await admin.crawlStats();
    const others = await admin.dropHashTag();
    if (dedupKey && !dedupKey.includes(admin.keys.tag)) {
      ctx.warn(`the dedup store whose counters are at ${dedupKey} is outside the queue's hash tag and was kept; delete it with its own tools if the crawl is over`);
    }
    if (ctx.json) return ctx.printJson({ queue: name, requests: total, otherKeysDeleted: others });
    ctx.print(`dropped queue "${name as string}": ${total} request(s), ${others} other key(s) of ${admin.keys.tag}`);
  },
  true,
);
