import { setTimeout as sleep } from 'node:timers/promises';
import { defineCliCommand } from '../define-command.js';
import { CliUsageError } from '../errors/cli-usage-error.js';
import { formatBytes, formatCount } from '../format.js';
import { politenessLine, queueSnapshot } from './stats.js';
import { workerTable } from './workers.js';
import { shardLines } from './shard-lines.js';

/** Cursor home + clear screen: the next frame replaces the last one on a terminal. */
const CLEAR = '\x1b[H\x1b[2J';

/** `crawlee-redis watch <queue>`: a live view (counts, rate, politeness, per-shard bars, per-worker rows), refreshed in place. */
export const watchCommand = defineCliCommand(
  'watch',
  (c) =>
    c
      .description('live view of a queue: counts, rate, politeness (polite queue), pending per shard (sharded queue), per-worker rows, refreshed in place (Ctrl-C to stop)')
      .argument('<queue>', 'queue name')
      .option('--interval <secs>', 'seconds between refreshes', '2')
      .option('--frames <n>', 'stop after n frames (default: run until Ctrl-C)'),
  async (ctx, [name], options) => {
    const intervalSecs = Number(options.interval);
    if (!Number.isFinite(intervalSecs) || intervalSecs < 0.1) throw new CliUsageError(`--interval must be a number of seconds, at least 0.1 (got ${String(options.interval)})`);
    // Without --frames it runs until Ctrl-C / SIGTERM (Infinity is not an integer: checked only when given).
    const framesOption = options.frames as string | undefined;
    const frames = framesOption === undefined ? Infinity : Number(framesOption);
    if (framesOption !== undefined && !(/^\d+$/.test(framesOption) && frames >= 1)) {
      throw new CliUsageError(`--frames must be a positive integer (got ${framesOption}); leave it out to run until Ctrl-C`);
    }
    const admin = await ctx.admin(name as string);
    let stop = false;
    // Ctrl-C / SIGTERM ends the wait between frames at once, and the command exits 0 (stopping is the user's choice).
    const stopped = new AbortController();
    const onSignal = () => {
      stop = true;
      stopped.abort();
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const tty = ctx.io.stdout.isTTY === true;
    let previous: { at: number; handled: number } | undefined;
    try {
      for (let frame = 1; frame <= frames && !stop; frame++) {
        const at = Date.now();
        const [{ workerList, ...s }, shards] = await Promise.all([queueSnapshot(admin), admin.shardStats()]);
        // Crawl rate from the queue's own handled counter (exact, atomic with the data), between two frames.
        const queueRate = previous ? ((s.handled - previous.handled) * 1000) / Math.max(1, at - previous.at) : undefined;
        previous = { at, handled: s.handled };
        if (ctx.json) {
          ctx.print(JSON.stringify({ frame, at: new Date(at), queue: name, ...s, queueRate, workers: workerList, ...(shards.length > 1 ? { shards } : {}) }));
        } else {
          const done = s.total > 0 ? `${((100 * s.handled) / s.total).toFixed(1)}%` : '-';
          const lines = [
            `crawlee-redis watch ${name as string}  ${new Date(at).toISOString()}  (every ${intervalSecs}s, frame ${frame})`,
            `handled ${formatCount(s.handled)} / ${formatCount(s.total)} (${done})  pending ${formatCount(s.pending)}  locked ${formatCount(s.locked)}  dead letters ${formatCount(s.deadLetters)}`,
            `rate ${queueRate === undefined ? '-' : queueRate.toFixed(1)} req/s (workers report ${s.rate.toFixed(1)})  failed ${formatCount(s.crawl.failed)}  retried ${formatCount(s.crawl.retried)}  memory ${formatBytes(s.queueBytes)}`,
            `workers: ${s.workers.alive} alive, ${s.workers.stopped} stopped, ${s.workers.dead} dead`,
            ...(s.politeness.enabled ? [`politeness: ${politenessLine(s.politeness)}`] : []),
            ...(s.politeness.enabled && Object.keys(s.politeness.waiting).length > 0
              ? [`longest waits: ${Object.entries(s.politeness.waiting).map(([host, secs]) => `${host} ${secs.toFixed(1)} s`).join(', ')}`]
              : []),
            ...shardLines(shards),
            '',
            workerList.length > 0 ? workerTable(workerList, at) : '(no worker has published stats yet)',
          ];
          // On a terminal the frame replaces the last one; in a pipe or file, frames follow each other.
          ctx.io.stdout.write(tty ? CLEAR : frame > 1 ? '\n' : '');
          ctx.print(lines.join('\n'));
        }
        if (frame < frames && !stop) await sleep(intervalSecs * 1000, undefined, { signal: stopped.signal }).catch(() => undefined);
      }
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  },
);
