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
    const others = await admin.dropHashTag();
    if (ctx.json) return ctx.printJson({ queue: name, requests: total, otherKeysDeleted: others });
    ctx.print(`dropped queue "${name as string}": ${total} request(s), ${others} other key(s) of ${admin.keys.tag}`);
  },
  true,
);
