import { unlinkHashTag } from '../../admin/unlink-hash-tag.js';
import { unindexQueue } from '../../core/queue-index.js';
import { wrongTypeErrorOf } from '../../errors/wrong-type-error-of.js';
import { defineCliCommand } from '../define-command.js';

/** `crawlee-redis drop <queue>`: deletes every key of the queue's hash tag (dedup keys with that tag included). */
export const dropCommand = defineCliCommand(
  'drop',
  (c) =>
    c
      .description("delete a queue: every key with the queue's hash tag, worker stats and dedup keys included (the start-URL feed list is kept)")
      .argument('<queue>', 'queue name'),
  async (ctx, [name]) => {
    const admin = await ctx.admin(name as string, true, true);
    // A queue with a key of another type (written by another program) cannot be read, only deleted: by its hash tag.
    const total = await admin.stats().then(
      (s) => s.total,
      (error: unknown) => {
        if (wrongTypeErrorOf(error) === undefined) throw error;
        return undefined;
      },
    );
    const counted = total === undefined ? 'unreadable: a key holds another type' : `${total} requests`;
    await ctx.confirm(`drop queue "${name as string}" (${counted}, every key of hash tag ${admin.keys.tag})`, name as string);
    if (total === undefined) {
      const handle = await ctx.handle();
      const deleted = await unlinkHashTag(handle, admin.keys.tag);
      await handle.run(() => unindexQueue(handle.redis, ctx.keyPrefix, name as string));
      if (ctx.json) return ctx.printJson({ queue: name, requests: null, otherKeysDeleted: deleted });
      return ctx.print(`dropped queue "${name as string}" (a key of another type made it unreadable): ${deleted} key(s) of ${admin.keys.tag}`);
    }
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
