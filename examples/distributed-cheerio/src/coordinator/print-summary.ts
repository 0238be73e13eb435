import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { log } from 'crawlee';
import type { RunSummary } from './summary.js';

// The summary as the user sees it: log lines and the --summary-json file (buildSummary, in summary.ts, computes it).

/** `1 page`, `2 pages`. */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

function bytes(n: number | null): string {
  if (n === null) return 'n/a';
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(2)} MiB` : `${(n / 1024).toFixed(1)} KiB`;
}

/** Prints the summary through Crawlee's log. */
export function printSummary(s: RunSummary): void {
  log.info('summary:');
  for (const w of s.workers) log.info(`  ${w.worker.padEnd(12)} ${String(w.pages).padStart(6)} ${w.pages === 1 ? 'page ' : 'pages'}  ${w.exit}`);
  log.info(`  unique pages            ${s.uniquePages}`);
  const fetched = s.httpFetches === null ? '' : `; the server answered ${s.httpFetches.total} GETs, ${s.pagesFetchedTwice} page(s) twice`;
  log.info(`  pages handled           ${s.pagesHandled} (${s.duplicatePagesHandled} recorded twice${fetched})`);
  log.info(`  duplicates filtered     ${s.duplicatesFiltered} of ${s.requestsOffered} requests offered`);
  if (s.dedupStore !== null) {
    const rate = s.dedupStore.estimatedFalsePositiveRate;
    log.info(
      `  ${`dedup store (${s.dedup})`.padEnd(24)}${count(s.dedupStore.itemsAdded, 'key')}, ${bytes(s.dedupStore.bytesUsed)}` +
        (s.dedup === 'bloom' ? `, estimated false-positive rate ${rate.toExponential(1)}` : '') +
        (s.dedupStore.filtered > 0 ? `; it answered ${s.dedupStore.filtered} of the duplicates filtered` : ''),
    );
  }
  const shards = s.shards > 1 ? ` (sums over ${s.shards} shards${s.redisCluster ? ' on the Redis Cluster' : ''})` : '';
  log.info(`  queue                   handled ${s.queue.handled}, pending ${s.queue.pending}, locked ${s.queue.locked ?? 'n/a'}, dead letters ${s.queue.deadLetters}${shards}`);
  if (s.failedRequests + s.httpErrors > 0) log.info(`  failed / HTTP errors    ${s.failedRequests} / ${s.httpErrors}`);
  const earlier = s.pagesHandled > s.pagesThisRun ? `; ${s.pagesHandled - s.pagesThisRun} more by earlier runs` : '';
  const thisRun = s.pagesHandled > s.pagesThisRun ? ' this run' : '';
  log.info(`  requests/s              ${s.requestsPerSecond} (${count(s.pagesThisRun, 'page')}${thisRun} in ${s.crawlSecs} s; ${s.durationSecs} s with start-up${earlier})`);
  const server = s.redisCluster ? "the cluster's masters" : 'the server';
  log.info(`  Redis memory            ${bytes(s.redisUsedMemoryBytes)} used by ${server}, ${bytes(s.runKeysMemoryBytes)} by this run's keys`);
  if (s.queueMemory !== null) {
    const total = s.queue.handled + s.queue.pending;
    const per = s.queueMemory.bytes !== null && total > 0 ? ` (${Math.round(s.queueMemory.bytes / total)} B per request)` : '';
    log.info(`  queue memory            ${bytes(s.queueMemory.bytes)}${per}, handled requests kept as '${s.queueMemory.handledRequests}'`);
  }
  if (s.killedWorker !== null) {
    log.info(
      `  chaos                   ${s.killedWorker.worker} SIGKILLed after the fleet recorded ${count(s.killedWorker.afterPages, 'page')} ` +
        `(${s.killedWorker.worker} had recorded ${s.killedWorker.pagesItRecorded}); ` +
        `${s.pagesFetchedTwiceAfterKill} page(s) fetched twice because of it (${s.duplicatePagesHandled} recorded twice), ` +
        'each kept once in the output',
    );
  }
  if (s.retries.count > 0) {
    const cause =
      s.retries.refused > 0
        ? `${s.retries.refused} of them refused: the site did not listen at that moment`
        : "see the workers' warnings above for each cause";
    log.info(`  retries                 ${s.retries.count} failed attempt(s) retried (${cause})`);
  }
  if (s.politeness !== null) {
    const p = s.politeness;
    log.info(
      `  politeness              host delay ${p.hostDelaySecs} s, ${p.maxPerHost === null ? 'no limit' : `at most ${p.maxPerHost}`} per host; ` +
        `up to ${count(p.hostsWaitingPeak, 'host')} waiting, longest wait ${p.longestWaitSecsPeak.toFixed(1)} s; ` +
        `${count(p.throttled, 'throttling answer')} (429/503), ${count(p.hostBackoffs, 'host back-off')}`,
    );
  }
  if (s.stoppedByMaxRequests) log.info('  stopped at --max-requests; the rest of the queue was not crawled');
  const why = [
    s.killedWorker !== null ? `${s.pagesFetchedTwiceAfterKill} in flight on the killed worker` : '',
    s.retries.count > 0 ? `${s.retries.urls.length} retried after a failed attempt` : '',
  ].filter((part) => part !== '');
  const verdict = s.interrupted !== null
    ? `stopped by ${s.interrupted} as asked: ${s.queue.pending} request(s) left pending, every lock handed back; ` +
      `rerun with --queue ${s.queueName} to resume`
    : s.everyPageExactlyOnce
    ? 'every page crawled exactly once'
    : s.allPagesCrawled
      ? `every page crawled, each once in the output; ${s.pagesFetchedTwice} fetched twice` +
        (why.length > 0 ? ` (${why.join(', ')})` : '')
      : s.queue.deadLetters > 0
        ? `NOT every page was crawled: ${count(s.queue.deadLetters, 'dead letter')} (queue entries no worker could read, ` +
          `set aside${s.deadLettersCommand === null ? '' : `; list them with ${s.deadLettersCommand}`})` +
          (s.queue.pending + (s.queue.locked ?? 0) + s.failedRequests > 0 ? '; see also pending/locked/failed above' : '')
        : s.stoppedByMaxRequests && s.failedRequests === 0
          ? `stopped by --max-requests as asked (${s.queue.pending} request(s) left pending)`
          : s.uniquePages === 0 && s.httpErrors > 0 && s.queue.pending === 0 && s.failedRequests === 0
            ? `NOT crawled: no page recorded, the start page answered an HTTP error (${count(s.httpErrors, 'HTTP error')}; see the warnings above)`
            : s.failedWorkers.length > 0
              ? `NOT every page was crawled: ${s.failedWorkers.join(', ')} failed (see the errors above); the queue's ` +
                'counters cannot vouch for the crawl (a Redis that lost its data reads as an empty queue)'
              : 'NOT every page was crawled (see pending/locked/failed above)';
  log.info(`  result                  ${verdict}`);
  log.info(`  output                  ${s.output}`);
  if (s.resultsDataset !== null) {
    const d = s.resultsDataset;
    log.info(
      `  results                 Redis dataset "${d.name}", ${count(d.records, 'record')}; ` +
        (d.kept ? `kept${d.exportCommand === null ? '' : ` (${d.exportCommand})`}` : 'removed with the per-run queue (use --queue NAME or --keep-keys to keep it)'),
    );
  }
}

/** Writes the summary as JSON. */
export function writeSummaryJson(path: string, summary: RunSummary): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(summary, null, 2)}\n`);
}
