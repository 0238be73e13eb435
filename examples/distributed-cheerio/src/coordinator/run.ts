import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { RunOptions } from '../options.js';
import { chooseStorage } from './choose-storage.js';
import { runDistributed } from './run-distributed.js';
import { runInProcess } from './run-in-process.js';
import { openSiteSource } from './site-source.js';
import { printSummary, writeSummaryJson, type RunSummary } from './summary.js';

/** A queue name nobody else uses: one run never picks up another run's requests or dedup keys. */
export function uniqueQueueName(): string {
  return `crawl-${new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14)}-${randomBytes(3).toString('hex')}`;
}

/**
 * One whole run: choose the storage (Redis, a redis-server started for the run, or one process), serve the site,
 * crawl, print the summary, write the merged JSON Lines and `--summary-json`, and clean up what the run started.
 *
 * @param options - validated options (see {@link resolveOptions})
 * @returns the summary that was printed
 */
export async function runCrawl(options: RunOptions): Promise<RunSummary> {
  const storage = await chooseStorage(options);
  const runDir = mkdtempSync(join(tmpdir(), 'distributed-cheerio-run-'));
  const site = await openSiteSource(options).catch(async (error: unknown) => {
    if (storage.kind === 'redis-started-for-run') await storage.server.stop();
    throw error;
  });
  const queueName = options.queueName ?? uniqueQueueName();
  try {
    const summary =
      storage.kind === 'memory-one-process'
        ? await runInProcess({ options, queueName, site, runDir })
        : await runDistributed({ options, mode: storage.kind, redisUrl: storage.url, queueName, site, runDir });
    printSummary(summary);
    if (options.summaryJson !== undefined) writeSummaryJson(options.summaryJson, summary);
    return summary;
  } finally {
    await site.close();
    if (storage.kind === 'redis-started-for-run') await storage.server.stop();
    rmSync(runDir, { recursive: true, force: true });
  }
}
