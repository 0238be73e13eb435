import type { RedisQueueAdmin } from '../../admin/redis-queue-admin.js';
import { defineCliCommand } from '../define-command.js';
import { formatBytes, keyValues } from '../format.js';
import type { PolitenessStats } from '../../politeness/politeness-stats.js';

/** Everything `stats` and `watch` show about a queue, read in one go. */
export async function queueSnapshot(admin: RedisQueueAdmin) {
  const [queue, crawl, memory, workers, politeness, storage] = await Promise.all([
    admin.stats(),
    admin.crawlStats(),
    admin.memoryUsage(),
    admin.workers(),
    admin.politenessStats({ top: 5 }),
    admin.storage(),
  ]);
  return {
    ...queue,
    crawl,
    queueBytes: memory.bytes,
    handledRequests: storage.handledRequests,
    ...(storage.handledFalsePositiveRate === undefined ? {} : { handledFalsePositiveRate: storage.handledFalsePositiveRate }),
    workers: {
      alive: workers.filter((w) => w.state === 'alive').length,
      stopped: workers.filter((w) => w.state === 'stopped').length,
      dead: workers.filter((w) => w.state === 'dead').length,
    },
    // Rounded to the 3 decimals the workers publish (a sum of floats would print 49.95099999999999).
    rate: Math.round(workers.filter((w) => w.state === 'alive').reduce((sum, w) => sum + w.rate, 0) * 1000) / 1000,
    workerList: workers,
    politeness,
  };
}

/** The `politeness` line of `stats`: the settings, hosts waiting, the longest wait, delayed retries, busiest hosts.
 * @param p - the queue's politeness stats */
export function politenessLine(p: PolitenessStats): string {
  const limit = p.maxConcurrencyPerHost === 0 ? 'no limit per host' : `at most ${p.maxConcurrencyPerHost} per host`;
  const busiest = Object.entries(p.inFlight).map(([host, n]) => `${host} ${n}`).join(', ');
  return (
    `min delay ${p.minDelaySecs} s, ${limit}; ${p.hosts.toLocaleString('en-US')} hosts with requests, ${p.hostsWaiting.toLocaleString('en-US')} waiting, ` +
    `longest wait ${p.longestWaitSecs.toFixed(1)} s, ${p.delayed.toLocaleString('en-US')} retries delayed${busiest ? `; in flight: ${busiest}` : ''}`
  );
}

/** `crawlee-redis stats <queue>`: counters, crawl-wide worker counters, dedup hits, memory. */
export const statsCommand = defineCliCommand(
  'stats',
  (c) => c.description('counters of a queue: requests, crawl-wide worker counters, dedup hits, Redis memory').argument('<queue>', 'queue name'),
  async (ctx, [name]) => {
    const admin = await ctx.admin(name as string);
    const { workerList, ...snapshot } = await queueSnapshot(admin);
    if (ctx.json) return ctx.printJson({ queue: name, ...snapshot });
    const s = snapshot;
    const progress = s.total > 0 ? ` (${Math.min(100, (100 * s.handled) / s.total).toFixed(1)}%)` : '';
    ctx.print(
      keyValues([
        ['queue', `${name as string} (key prefix "${ctx.keyPrefix}")`],
        ['total', s.total],
        ['handled', `${s.handled.toLocaleString('en-US')}${progress}`],
        ['pending', s.pending],
        ['locked', s.locked],
        ['dead letters', s.deadLetters],
        ['succeeded', s.crawl.handled],
        ['failed', s.crawl.failed],
        ['retried', s.crawl.retried],
        ['duplicates filtered', `${s.crawl.alreadyPresent.toLocaleString('en-US')}${s.crawl.dedupFiltered === undefined ? '' : ` (${s.crawl.dedupFiltered.toLocaleString('en-US')} answered by the dedup store ${s.crawl.dedupKey!})`}`],
        ['workers', `${s.workers.alive} alive, ${s.workers.stopped} stopped, ${s.workers.dead} dead`],
        ['rate', `${s.rate.toFixed(1)} req/s`],
        ['queue memory', `${formatBytes(s.queueBytes)}${s.total > 0 ? ` (${Math.round(s.queueBytes / s.total)} B per request)` : ''}`],
        ['handled store', `${s.handledRequests}${s.handledFalsePositiveRate === undefined ? '' : ` (estimated false-positive rate ${s.handledFalsePositiveRate.toExponential(1)})`}`],
        ...(s.politeness.enabled ? [['politeness', politenessLine(s.politeness)] as [string, string]] : []),
      ]),
    );
    void workerList;
  },
);
