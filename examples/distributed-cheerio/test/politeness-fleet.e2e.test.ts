/**
 * Fleet politeness end to end: 3 worker processes crawl a site spread over 10 loopback hosts
 * (127.0.0.2 ... 127.0.0.11, one HTTP server each, see helpers/multi-host-site.ts) through one Redis queue with
 * `--host-delay-secs` / `--max-per-host`. Every assertion is on what the site's servers saw: arrival and finish times
 * per host, requests in flight per host, the 429 host's silence, the killed worker's cut-off requests.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { sleep } from '@crawlee-distributed/test-utils';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { RunSummary } from '../src/coordinator/summary.js';
import { crawl, outputDir } from './helpers/run-cli.js';
import { processOfClientPort, startMultiHostSite, type SiteHit } from './helpers/multi-host-site.js';
import { spawnCli } from './helpers/spawn-cli.js';

const redisUrl = inject('redisUrl');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Timers and the millisecond clock: how much closer than the delay two requests may arrive. */
const TIMER_SLACK_MS = 5;
const HOSTS = 10;
const FLEET = ['--workers', '3', '--concurrency', '4', '--enqueue-strategy', 'all', '--progress-secs', '1', '--dedup', 'set'];

function byArrival(hits: SiteHit[]): SiteHit[] {
  return [...hits].sort((a, b) => a.arrivedAt - b.arrivedAt);
}

/** Per host, the pairs of requests one after the other (by arrival). */
function consecutive(hits: SiteHit[], hosts: number): Array<[SiteHit, SiteHit]> {
  const pairs: Array<[SiteHit, SiteHit]> = [];
  for (let h = 0; h < hosts; h++) {
    const mine = byArrival(hits.filter((hit) => hit.host === h));
    for (let i = 1; i < mine.length; i++) pairs.push([mine[i - 1]!, mine[i]!]);
  }
  return pairs;
}

async function crawlSite(args: string[]) {
  const dir = outputDir();
  dirs.push(dir);
  return crawl(dir, [...FLEET, ...args], { REDIS_URL: redisUrl });
}

describe('politeness across the fleet: 3 workers, 10 loopback hosts', () => {
  it(
    'every gap to one host is at least --host-delay-secs from the end of the previous request, the crawl takes about what ' +
      'the slowest host imposes, and a 429 + Retry-After: 2 silences that host (and only it) for every worker',
    async () => {
      const delaySecs = 1;
      // Host 0 has the most pages: with one request at a time and 1 s between them it bounds the crawl.
      const site = await startMultiHostSite({
        hosts: HOSTS,
        pagesPerHost: (h) => (h === 0 ? 10 : 5),
        delayMs: 20,
        throttle: { host: 3, afterRequests: 1, forMs: 300, retryAfter: '2' },
      });
      try {
        // A delay alone: --max-per-host defaults to 1 (as --help and the README say), so the gap holds as the site sees it.
        const { summary } = await crawlSite(['--start-url', site.startUrl, '--host-delay-secs', String(delaySecs)]);
        expect(summary.politeness).toMatchObject({ hostDelaySecs: delaySecs, maxPerHost: 1 });
        expect(summary.uniquePages).toBe(site.pageUrls.length);
        expect(summary.allPagesCrawled).toBe(true);

        // The coordinator's start-URL check came first (it is a request the site sees too: the fleet's first
        // request to that host keeps the delay after it).
        expect(site.hits[0]).toMatchObject({ host: 0, path: '/index.html' });
        const gaps = consecutive(site.hits, HOSTS);
        expect(gaps.length).toBeGreaterThan(40);
        for (const [a, b] of gaps) {
          // Counted from the later of hand-out and end: never closer than the delay to the end of the previous one.
          expect(b.arrivedAt - a.finishedAt, `host ${b.host}: ${a.path} -> ${b.path}`).toBeGreaterThanOrEqual(delaySecs * 1000 - TIMER_SLACK_MS);
        }
        expect(Math.max(...site.maxInFlight())).toBe(1);

        // The bound of the slowest host (one request at a time, the delay between two): its requests' own service
        // times plus the delays. No worker sits idle while a host is allowed, so the crawl stays close to it.
        const slowest = byArrival(site.hitsOf(0)).slice(1); // without the start-URL check
        const bound = slowest.reduce((sum, hit) => sum + (hit.finishedAt - hit.arrivedAt), 0) + (slowest.length - 1) * delaySecs * 1000;
        const crawlHits = site.hits.slice(1);
        const took = Math.max(...crawlHits.map((h) => h.finishedAt)) - Math.min(...crawlHits.map((h) => h.arrivedAt));
        expect(took).toBeGreaterThanOrEqual(bound - TIMER_SLACK_MS);
        // A quiet machine is within 0.2 s of the bound; this allows a busy 2-core one 150 ms per gap, at least 1.5 s.
        // A lock call that waited for the next host while Crawlee still held a request it had locked ahead (its
        // RequestQueueV2 locks again before it hands out its last one) cost a whole delay per new host: 14 s here.
        expect(took, `crawl ${took} ms, bound ${bound} ms`).toBeLessThanOrEqual(bound + Math.max(1500, (slowest.length - 1) * 150));
        const slowestGaps = consecutive(slowest, 1);
        const meanGap = slowestGaps.reduce((sum, [a, b]) => sum + (b.arrivedAt - a.finishedAt), 0) / slowestGaps.length;
        expect(meanGap, 'host 0: mean wait after a request ends').toBeLessThan(delaySecs * 1000 + 250);

        // The 429: nobody asks host 3 again for 2 s after it answered, while the other hosts keep being crawled.
        const throttled = site.hitsOf(3).filter((hit) => hit.status === 429);
        expect(throttled).toHaveLength(1);
        const t429 = throttled[0]!.finishedAt;
        const nextTo3 = byArrival(site.hitsOf(3)).find((hit) => hit.arrivedAt > t429);
        expect(nextTo3, 'host 3 is crawled again after the pause').toBeDefined();
        expect(nextTo3!.arrivedAt - t429).toBeGreaterThanOrEqual(2000 - TIMER_SLACK_MS);
        const othersDuring = new Set(site.hits.filter((hit) => hit.host !== 3 && hit.arrivedAt > t429 && hit.arrivedAt < t429 + 2000).map((hit) => hit.host));
        expect(othersDuring.size, 'hosts crawled while host 3 waits').toBeGreaterThanOrEqual(4);
        expect(summary.politeness).toMatchObject({ hostDelaySecs: 1, maxPerHost: 1 });
        expect(summary.politeness!.throttled).toBe(1);
        expect(summary.politeness!.hostBackoffs).toBeGreaterThanOrEqual(1);
        expect(summary.politeness!.hostsWaitingPeak).toBeGreaterThan(0);
        expect(summary.politeness!.longestWaitSecsPeak).toBeGreaterThan(0);
      } finally {
        await site.close();
      }
    },
    120_000,
  );

  it('--max-per-host 2 with slow pages: never more than 2 requests of one host in flight across the fleet', async () => {
    // 12 request slots (3 workers x 4) and 6 pages per host arriving at once: without the limit a host gets most of them.
    const site = await startMultiHostSite({ hosts: HOSTS, pagesPerHost: 6, delayMs: 300 });
    try {
      const { summary } = await crawlSite(['--start-url', site.startUrl, '--max-per-host', '2']);
      expect(summary.uniquePages).toBe(site.pageUrls.length);
      expect(summary.allPagesCrawled).toBe(true);
      const peaks = site.maxInFlight();
      expect(Math.max(...peaks), `in flight per host: ${peaks.join(', ')}`).toBe(2);
      // The limit was used, not merely unreached: most hosts had two requests in flight at some point.
      expect(peaks.filter((p) => p === 2).length).toBeGreaterThanOrEqual(HOSTS / 2);
    } finally {
      await site.close();
    }
  }, 90_000);

  it('a SIGKILLed worker: its cut-off requests hold their hosts only until their locks expire, then the crawl completes', async () => {
    const lockSecs = 6;
    const site = await startMultiHostSite({ hosts: HOSTS, pagesPerHost: 4, delayMs: (_h, path) => (path === '/index.html' ? 20 : 1500) });
    const dir = outputDir();
    dirs.push(dir);
    const summaryFile = join(dir, 'summary.json');
    try {
      const run = spawnCli(
        [
          ...FLEET, '--start-url', site.startUrl, '--host-delay-secs', '0.5', '--max-per-host', '1', '--lock-secs', String(lockSecs),
          '--summary-json', summaryFile, '--output', join(dir, 'pages.jsonl'),
        ],
        { REDIS_URL: redisUrl },
      );
      // SIGKILL the worker that has a slow page in flight (found by the socket its request came on): it dies
      // holding that host's one slot.
      let killed: { pid: number; hit: SiteHit } | undefined;
      const deadline = Date.now() + 60_000;
      while (killed === undefined && Date.now() < deadline) {
        await sleep(100);
        const inFlight = site.hits.filter((hit) => hit.status === 0 && !hit.aborted && hit.path !== '/index.html' && Date.now() - hit.arrivedAt < 1000);
        for (const hit of inFlight) {
          const pid = processOfClientPort(hit.clientPort, run.workerPids());
          if (pid !== undefined) {
            process.kill(pid, 'SIGKILL');
            killed = { pid, hit };
            break;
          }
        }
      }
      expect(killed, 'a worker with a request in flight').toBeDefined();
      expect(await run.exited, run.output().slice(-3000)).toBe(0);
      const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as RunSummary;
      expect(summary.uniquePages).toBe(site.pageUrls.length);
      expect(summary.allPagesCrawled).toBe(true);
      expect(summary.workers.filter((w) => w.exit.includes('SIGKILL'))).toHaveLength(1);
      expect(Math.max(...site.maxInFlight())).toBe(1);
      const cut = site.hits.filter((hit) => hit.aborted);
      expect(cut).toContain(killed!.hit);
      for (const hit of cut) {
        const next = byArrival(site.hitsOf(hit.host)).find((h) => h.arrivedAt > hit.finishedAt);
        expect(next, `host ${hit.host} is crawled again`).toBeDefined();
        const after = next!.arrivedAt - hit.finishedAt;
        // The dead lock kept the host's one slot (a slot freed at once would let the next page in after 0.5 s) ...
        expect(after, `host ${hit.host}: next request ${after} ms after the kill`).toBeGreaterThan(2000);
        // ... until it expired, and then the host was crawled again promptly. Crawlee prolongs a lock once as it
        // takes the request, so it expires at most twice --lock-secs after the hand-out (before the kill).
        expect(after).toBeLessThan(2 * lockSecs * 1000 + 4000);
        // The cut-off page itself was fetched again and answered.
        expect(site.hitsOf(hit.host).some((h) => h.path === hit.path && h.status === 200 && h.arrivedAt > hit.finishedAt)).toBe(true);
      }
    } finally {
      await site.close();
    }
  }, 120_000);
});
