import { defineCliCommand } from '../define-command.js';
import { CliUsageError } from '../errors/cli-usage-error.js';
import { DeadLetterNotFoundError } from '../errors/dead-letter-not-found-error.js';
import { table } from '../format.js';
import { splitReadableDeadLetters } from '../readable-dead-letters.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

function preview(raw: Buffer): { text: string; utf8: boolean } {
  try {
    return { text: utf8.decode(raw), utf8: true };
  } catch {
    return { text: raw.toString('base64'), utf8: false };
  }
}

/** `crawlee-redis dead-letters <queue> [--requeue] [--delete]`: entries no worker could read. */
export const deadLettersCommand = defineCliCommand(
  'dead-letters',
  (c) =>
    c
      .description('list the dead letters of a queue; --requeue puts them back, --delete removes them')
      .argument('<queue>', 'queue name')
      .option('--requeue', 'put them back (queue entries into the queue, feed items at the head of the feed)')
      .option('--delete', 'delete them for good (asks for confirmation)')
      .option('--id <ids...>', 'only these dead-letter ids'),
  async (ctx, [name], options) => {
    if (options.requeue && options.delete) throw new CliUsageError('pass --requeue or --delete, not both');
    const admin = await ctx.admin(name as string);
    const ids = options.id as string[] | undefined;
    if (options.requeue) {
      // Only what a worker can read goes back; the rest stays in the dead letters, named with its reason.
      const { readable, unreadable } = splitReadableDeadLetters(await admin.listDeadLetters(), ids);
      const result = readable.length > 0 ? await admin.requeueDeadLetters({ ids: readable }) : { requeued: 0, skipped: 0 };
      const skipped = result.skipped + unreadable.length;
      if (ctx.json) return ctx.printJson({ requeued: result.requeued, skipped, unreadable });
      const shown = unreadable.slice(0, 5).map((u) => `${u.id} (${u.reason})`).join(', ') + (unreadable.length > 5 ? `, and ${unreadable.length - 5} more` : '');
      return ctx.print(`requeued ${result.requeued}, skipped ${skipped}${unreadable.length > 0 ? ` (unreadable: ${shown})` : ''}`);
    }
    if (options.delete) {
      // Every asked-for id must be there: a typo deletes nothing rather than the rest of a list the user checked.
      if (ids) {
        const known = new Set((await admin.listDeadLetters()).map((l) => l.id));
        const missing = ids.filter((id) => !known.has(id));
        if (missing.length > 0) throw new DeadLetterNotFoundError(name as string, missing);
      }
      const count = ids?.length ?? (await admin.stats()).deadLetters;
      await ctx.confirm(`delete ${count} dead letter(s) of queue "${name as string}"`, name as string);
      const deleted = await admin.deleteDeadLetters(ids);
      return ctx.json ? ctx.printJson({ deleted }) : ctx.print(`deleted ${deleted} dead letter(s)`);
    }
    const letters = (await admin.listDeadLetters()).filter((l) => !ids || ids.includes(l.id));
    if (ctx.json) {
      return ctx.printJson(
        letters.map((l) => {
          const raw = preview(l.raw);
          const stalls = l.stalls === undefined ? {} : { stalls: l.stalls };
          return { id: l.id, source: l.source, at: l.at, reason: l.reason, ...stalls, raw: raw.text, rawEncoding: raw.utf8 ? 'utf8' : 'base64' };
        }),
      );
    }
    if (letters.length === 0) return ctx.print(`no dead letters in queue "${name as string}"`);
    ctx.print(
      table(
        ['ID', 'SOURCE', 'AT', 'REASON', 'RAW'],
        letters.map((l) => {
          const raw = preview(l.raw);
          const text = raw.utf8 ? raw.text : `base64:${raw.text}`;
          return [l.id, l.source, l.at.toISOString(), l.reason, text.length > 60 ? `${text.slice(0, 57)}...` : text];
        }),
      ),
    );
  },
  true,
);
