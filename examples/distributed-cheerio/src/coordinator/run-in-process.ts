import { log } from 'crawlee';
import { join } from 'node:path';
import type { RunOptions } from '../options.js';
import { countOffers } from '../worker/count-offers.js';
import { createCrawler, processLocalConfiguration } from '../worker/create-crawler.js';
import { openMemoryQueue } from '../worker/open-queue.js';
import { MemoryRunCounters } from '../worker/run-counters.js';
import { memorySnapshot } from './fleet-snapshot.js';
import { mergeRecords, writeJsonLines } from './merge-records.js';
import { PageClock } from './page-clock.js';
import { ProgressReporter } from './progress.js';
import type { SiteSource } from './site-source.js';
import { buildSummary, type RunSummary } from './summary.js';

/**
 * The fallback without Redis: the same crawler, fingerprint and dedup composition in one process, on Crawlee's
 * MemoryStorage with an in-memory Bloom filter (or Set). Concurrency is workers x per-worker concurrency.
 */
export async function runInProcess(input: {
  options: RunOptions;
  queueName: string;
  site: SiteSource;
  runDir: string;
}): Promise<RunSummary> {
  const { options, site, queueName } = input;
  const config = processLocalConfiguration();
  const { queue, store } = await openMemoryQueue({ config, queueName, dedup: options.dedup });
  const counters = new MemoryRunCounters();
  countOffers(queue, counters);
  await queue.addRequests([{ url: site.startUrl }]);
  const recordsFile = join(input.runDir, 'in-process.jsonl');
  const crawler = createCrawler(
    {
      worker: 'in-process',
      queue,
      counters,
      recordsFile,
      concurrency: options.workers * options.concurrency,
      lockSecs: options.lockSecs,
      enqueueStrategy: options.enqueueStrategy,
      ...(options.maxRequests !== undefined ? { maxRequests: options.maxRequests } : {}),
    },
    config,
  );
  const read = memorySnapshot(queue, counters, store);
  const progress = new ProgressReporter(read, options.progressSecs, () => 1);
  log.info(`crawling ${site.startUrl} in one process (concurrency ${options.workers * options.concurrency})`);
  const startedAt = Date.now();
  progress.start();
  const clock = new PageClock(async () => (await counters.read()).pages ?? 0);
  await clock.start();
  // Crawlee pauses the crawler on SIGINT by itself; remember that the stop was asked for (not a failure).
  let interrupted: NodeJS.Signals | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    interrupted = signal;
    if (signal === 'SIGTERM') void crawler.autoscaledPool?.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await crawler.run();
  } finally {
    progress.stop();
    await clock.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  const durationSecs = (Date.now() - startedAt) / 1000;
  const snapshot = await read();
  const merged = await mergeRecords([recordsFile]);
  writeJsonLines(options.output, merged.pages);
  await store?.close();
  return buildSummary({
    mode: 'memory-one-process',
    redisUrl: null,
    queueName,
    dedup: options.dedup,
    startUrl: site.startUrl,
    snapshot,
    merged,
    exits: [],
    durationSecs,
    crawlSecs: clock.crawlSecs,
    pagesThisRun: clock.pages,
    redisUsedMemoryBytes: null,
    runKeysMemoryBytes: null,
    fetches: site.server?.fetches ?? null,
    killed: null,
    retried: await counters.retried(),
    output: options.output,
    interrupted,
  });
}
