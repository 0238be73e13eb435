// The dashboard in a real browser (Debian's chromium through playwright-core) while two worker processes crawl a
// real Redis queue: the numbers on the page agree with RedisQueueAdmin, a dead letter made by the workers themselves
// shows with its reason, and its Requeue button moves it back into the queue; dedup hits and the worker table
// agree with the worker stats in Redis. The screenshot goes to a temp folder, or with UPDATE_SCREENSHOTS=1 to
// docs/dashboard.png (the one docs/dashboard-and-metrics.md shows), so `npm test` leaves the tree clean.
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { startRedisServer } from '@crawlee-distributed/test-utils';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { startDashboard, type DashboardHandle } from '../../src/dashboard/start-dashboard.js';
import { RedisQueueAdmin } from '../../src/admin/redis-queue-admin.js';
import { RedisStorageClient } from '../../src/storage/redis-storage-client.js';
import type { RedisRequestQueueClient } from '../../src/storage/redis-request-queue-client.js';
import type { RedisQueueStats } from '../../src/admin/redis-queue-admin.js';
import { createScenario, type Scenario } from '../multiprocess/scenario.js';

const MAX = 500;
const SCREENSHOT =
  process.env.UPDATE_SCREENSHOTS === '1'
    ? fileURLToPath(new URL('../../docs/dashboard.png', import.meta.url))
    : join(mkdtempSync(join(tmpdir(), 'dashboard-')), 'dashboard.png');
const JUNK_ID = 'junk-entry-1';
const PANELS_SCREENSHOT =
  process.env.UPDATE_SCREENSHOTS === '1'
    ? fileURLToPath(new URL('../../docs/dashboard-politeness-shards.png', import.meta.url))
    : join(mkdtempSync(join(tmpdir(), 'dashboard-panels-')), 'dashboard-politeness-shards.png');

let browser: Browser;
let dashboard: DashboardHandle;
let scenario: Scenario;
let page: Page;

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
});
afterAll(async () => {
  await browser?.close();
  await dashboard?.close();
});

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const card = () => page.locator(`[data-queue="${scenario.config.queueName}"]`);

/** The numbers the page shows for the queue. */
async function shown(): Promise<Record<keyof RedisQueueStats, number>> {
  const read = async (key: string) => Number(await card().locator(`[data-stat="${key}"]`).textContent());
  return { total: await read('total'), pending: await read('pending'), locked: await read('locked'), handled: await read('handled'), deadLetters: await read('deadLetters') };
}

/** The dedup hits the page shows. */
const shownDedupHits = async () => Number(await card().locator('[data-stat="dedupHits"]').textContent());

/** The worker table: state and handled count by worker id. */
async function shownWorkers(): Promise<Record<string, { state: string; handled: number }>> {
  const rows = await card().locator('tr[data-worker]').evaluateAll((trs) =>
    trs.map((tr) => [tr.getAttribute('data-worker'), tr.getAttribute('data-state'), tr.querySelector('[data-field="handled"]')?.textContent]),
  );
  return Object.fromEntries(rows.map(([id, state, handled]) => [id!, { state: state!, handled: Number(handled) }]));
}

/** Waits for a poll whose snapshot was taken after `since` (ms). */
async function freshPoll(since: number): Promise<void> {
  await page.waitForFunction((t) => Date.parse(document.getElementById('status')?.dataset.at ?? '') > t, since, { timeout: 15_000 });
}

it('shows live counts that match Redis, the worker table, and requeues a dead letter with one click', { timeout: 150_000 }, async () => {
  scenario = createScenario(inject('redisUrl'), {
    queueName: 'shop-products',
    max: MAX,
    handlerMs: 120,
    concurrency: 2,
    // Publishes twice a second; a stopped worker's record stays a minute (the test reads it after the crawl).
    queueOptions: { workerStats: { intervalSecs: 0.5, ttlSecs: 60 } },
  });
  let failed = true;
  try {
    dashboard = await startDashboard({ redis: scenario.config.redisUrl, keyPrefix: scenario.config.keyPrefix, port: 0 });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(dashboard.url);
    await scenario.fleet.startTogether(2);
    const { admin } = scenario;

    // A foreign entry at the head of the queue: the workers' own listAndLockHead moves it to the dead letters.
    await until(() => admin.stats(), (s) => s.total > 0, 'the crawl to start');
    await admin.redis.multi()
      .hset(admin.keys.data, JUNK_ID, '{"url":"https://shop.example/item/7","uniqueKey":')
      .lpush(admin.keys.front, `1000000000000 ${JUNK_ID}`)
      .hincrby(admin.keys.meta, 'total', 1).hincrby(admin.keys.meta, 'pending', 1)
      .exec();
    await until(() => admin.stats(), (s) => s.deadLetters === 1, 'the workers to dead-letter the foreign entry');

    // While the crawl runs: the page's numbers lie between two Redis reads around its poll (handled and total
    // only grow during a crawl), and the dead letter shows with its reason.
    const before = await admin.stats();
    const crawlBefore = await admin.crawlStats();
    const t0 = Date.now();
    await freshPoll(t0);
    const live = await shown();
    const liveDedup = await shownDedupHits();
    const after = await admin.stats();
    const crawlAfter = await admin.crawlStats();
    expect(after.handled).toBeLessThan(MAX); // still crawling
    expect(live.handled).toBeGreaterThanOrEqual(before.handled);
    expect(live.handled).toBeLessThanOrEqual(after.handled);
    expect(live.total).toBeGreaterThanOrEqual(before.total);
    expect(live.total).toBeLessThanOrEqual(after.total);
    expect(live.deadLetters).toBe(1);
    // Dedup hits are the workers' crawl-wide counters (every worker seeds request 1, the graph adds duplicates).
    expect(liveDedup).toBeGreaterThanOrEqual(crawlBefore.alreadyPresent);
    expect(liveDedup).toBeLessThanOrEqual(crawlAfter.alreadyPresent);
    const row = card().locator(`tr[data-dead-letter="${JUNK_ID}"]`);
    await expect.poll(() => row.locator('td.reason').textContent()).toMatch(/\S/);
    // The worker table lists both workers from their published stats, alive while they crawl.
    await expect
      .poll(async () => Object.values(await shownWorkers()).filter((w) => w.state === 'alive').length, { timeout: 15_000 })
      .toBe(2);
    expect(Object.keys(await shownWorkers()).sort()).toEqual((await admin.workers()).map((w) => w.id).sort());
    await page.waitForFunction(() => Number(document.querySelector('[data-stat="rate"]')?.textContent) > 0, undefined, { timeout: 15_000 });
    // A few polls of history make the charts worth a screenshot.
    await page.waitForFunction((name) => Number(document.querySelector(`[data-queue="${name}"]`)?.getAttribute('data-points')) >= 7, scenario.config.queueName, { timeout: 20_000 });
    mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });

    // After the crawl: the page shows exactly what Redis has.
    const codes = await scenario.fleet.waitAll(90_000);
    expect(codes, scenario.fleet.describe()).toEqual([0, 0]);
    const done = await admin.stats();
    expect(done).toEqual({ total: MAX, pending: 0, locked: 0, handled: MAX, deadLetters: 1 });
    await freshPoll(Date.now());
    expect(await shown()).toEqual(done);
    // The page shows exactly the counters and worker records in Redis (the workers exit without a last publish,
    // so their records stay alive until their TTL).
    const crawl = await admin.crawlStats();
    expect(crawl.alreadyPresent).toBeGreaterThan(0);
    expect(await shownDedupHits()).toBe(crawl.alreadyPresent);
    const workers = await admin.workers();
    expect(workers).toHaveLength(2);
    expect(await shownWorkers()).toEqual(Object.fromEntries(workers.map((w) => [w.id, { state: w.state, handled: w.handled }])));
    expect(workers.reduce((sum, w) => sum + w.handled, 0)).toBeGreaterThan(0);

    // Requeue: the row goes, the entry is pending in the queue again, and the page follows.
    await row.locator('button.requeue').click();
    await row.waitFor({ state: 'detached', timeout: 10_000 });
    expect(await admin.stats()).toEqual({ total: MAX + 1, pending: 1, locked: 0, handled: MAX, deadLetters: 0 });
    expect(await admin.redis.hexists(admin.keys.data, JUNK_ID)).toBe(1);
    expect(await admin.listDeadLetters()).toEqual([]);
    await freshPoll(Date.now());
    expect(await shown()).toMatchObject({ pending: 1, deadLetters: 0 });
    expect(await card().locator('tr[data-dead-letter]').count()).toBe(0);
    failed = false;
  } finally {
    await page?.close();
    await scenario.cleanup(failed);
  }
});

it('shows the politeness panel of a polite queue and the per-shard bars of a sharded one, each only there', { timeout: 60_000 }, async () => {
  const keyPrefix = `dash-${randomUUID().slice(0, 8)}`;
  const redisUrl = inject('redisUrl');
  const clients: RedisStorageClient[] = [];
  const open = async (name: string, options: Partial<ConstructorParameters<typeof RedisStorageClient>[0]>) => {
    const client = new RedisStorageClient({ redis: redisUrl, keyPrefix, workerStats: false, ...options });
    clients.push(client);
    await client.requestQueues().getOrCreate(name);
    return client.requestQueue(name, { clientKey: `w-${name}` }) as RedisRequestQueueClient;
  };
  const hostsOf = (n: number) => Array.from({ length: n }, (_, i) => `site${i}.example`);
  const admins: RedisQueueAdmin[] = [];
  const adminOf = (name: string) => {
    const admin = new RedisQueueAdmin({ redis: redisUrl, keyPrefix, name });
    admins.push(admin);
    return admin;
  };
  let panels: DashboardHandle | undefined;
  try {
    // A polite crawl: 6 hosts, one request per host in flight (the default with a delay), one host backed off (429).
    const polite = await open('polite-news', { politeness: { minDelaySecs: 30, maxConcurrencyPerHost: 2 } });
    await polite.batchAddRequests(hostsOf(6).flatMap((h) => [1, 2, 3, 4].map((n) => ({ url: `https://${h}/a/${n}`, uniqueKey: `https://${h}/a/${n}` }))));
    const locked = await polite.listAndLockHead({ limit: 8, lockSecs: 300 });
    expect(locked.items.length).toBeGreaterThan(0);
    for (const item of locked.items.slice(0, 3)) await polite.updateRequest({ ...item, handledAt: new Date().toISOString() });
    await polite.backOffHost('site5.example', 600);
    // A sharded crawl with a skew: one host's requests all share one shard (shardBy 'host').
    const sharded = await open('sharded-shop', { shards: 4 });
    await sharded.batchAddRequests([
      ...Array.from({ length: 40 }, (_, n) => ({ url: `https://big.example/p/${n}`, uniqueKey: `https://big.example/p/${n}` })),
      ...hostsOf(12).map((h) => ({ url: `https://${h}/`, uniqueKey: `https://${h}/` })),
    ]);
    for (let call = 0; call < 4; call++) {
      const { items } = await sharded.listAndLockHead({ limit: 3, lockSecs: 300 });
      for (const item of items.slice(0, 1)) await sharded.updateRequest({ ...item, handledAt: new Date().toISOString() });
    }

    panels = await startDashboard({ redis: redisUrl, keyPrefix, port: 0 });
    const p = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await p.goto(panels.url);
    const since = Date.now();
    await p.waitForFunction((t) => Date.parse(document.getElementById('status')?.dataset.at ?? '') > t, since, { timeout: 15_000 });
    const politeCard = p.locator('[data-queue="polite-news"]');
    const shardedCard = p.locator('[data-queue="sharded-shop"]');

    // Politeness panel: the numbers of RedisQueueAdmin.politenessStats(), on the polite queue only.
    const stats = await adminOf('polite-news').politenessStats({ top: 10 });
    expect(stats.hostsWaiting).toBeGreaterThan(0);
    expect(await politeCard.locator('[data-panel="politeness"]').isVisible()).toBe(true);
    expect(await shardedCard.locator('[data-panel="politeness"]').isVisible()).toBe(false);
    const politeShown = (key: string) => politeCard.locator(`[data-polite="${key}"]`).textContent();
    expect(Number(await politeShown('hosts'))).toBe(stats.hosts);
    expect(Number(await politeShown('hostsWaiting'))).toBe(stats.hostsWaiting);
    expect(Number(await politeShown('delayed'))).toBe(stats.delayed);
    expect(await politeShown('longestWait')).toMatch(/^(9m|10m) \d+s$/); // the 600 s backoff, counting down
    expect(await politeCard.locator('[data-polite-settings]').textContent()).toBe('(min delay 30s, at most 2 per host)');
    const hostRows = await politeCard.locator('tr[data-host]').evaluateAll((trs) =>
      trs.map((tr) => [tr.getAttribute('data-host'), Number(tr.querySelector('[data-field="inFlight"]')?.textContent)]),
    );
    const inFlightShown = Object.fromEntries(hostRows.filter(([, n]) => (n as number) > 0));
    expect(inFlightShown).toEqual(stats.inFlight);
    expect(hostRows.map(([h]) => h)).toContain('site5.example'); // the backed-off host, by its wait
    expect(await politeCard.locator('tr[data-host="site5.example"] [data-field="wait"]').textContent()).toMatch(/^(9m|10m) \d+s$/);

    // Shards panel: each shard's counters from RedisQueueAdmin.shardStats(), on the sharded queue only.
    const perShard = await adminOf('sharded-shop').shardStats();
    expect(perShard).toHaveLength(4);
    expect(await shardedCard.locator('[data-panel="shards"]').isVisible()).toBe(true);
    expect(await politeCard.locator('[data-panel="shards"]').isVisible()).toBe(false);
    const shardRows = await shardedCard.locator('tr[data-shard]').evaluateAll((trs) =>
      trs.map((tr) => ['pending', 'locked', 'handled'].map((f) => Number(tr.querySelector(`[data-field="${f}"]`)?.textContent))),
    );
    expect(shardRows).toEqual(perShard.map((s) => [s.pending, s.locked, s.handled]));
    const busiest = perShard.reduce((best, s, i) => (s.pending > perShard[best]!.pending ? i : best), 0);
    expect(perShard[busiest]!.pending).toBeGreaterThanOrEqual(39); // big.example's 40 share one shard
    expect(await shardedCard.locator('[data-shard-skew]').textContent()).toContain(`busiest s${busiest} holds`);
    // The bar chart is drawn: a uPlot canvas with the shard count's bars' data.
    expect(await shardedCard.locator('[data-chart="shards"] canvas').count()).toBe(1);
    mkdirSync(join(PANELS_SCREENSHOT, '..'), { recursive: true });
    await p.screenshot({ path: PANELS_SCREENSHOT, fullPage: true });
    await p.close();
  } finally {
    await panels?.close();
    for (const name of ['polite-news', 'sharded-shop']) await adminOf(name).dropHashTag().catch(() => undefined);
    await Promise.all(admins.map((a) => a.close()));
    await Promise.all(clients.map((c) => c.close()));
  }
});

it('shows the queues in the first paint, before any poll answers, and serves a favicon', { timeout: 60_000 }, async () => {
  const keyPrefix = `dash-${randomUUID().slice(0, 8)}`;
  const redisUrl = inject('redisUrl');
  const storage = new RedisStorageClient({ redis: redisUrl, keyPrefix, workerStats: false });
  const served = await startDashboard({ redis: redisUrl, keyPrefix, port: 0 });
  const p = await browser.newPage();
  try {
    // A name that would end the page's script element if it were pasted in as it is.
    for (const name of ['first-paint', 'x</script><b>y']) {
      await storage.requestQueues().getOrCreate(name);
      const queue = storage.requestQueue(name, { clientKey: 'w' }) as RedisRequestQueueClient;
      await queue.batchAddRequests(Array.from({ length: 7 }, (_, i) => ({ url: `https://a.example/${i}`, uniqueKey: `https://a.example/${i}` })));
      await queue.listAndLockHead({ limit: 2, lockSecs: 60 });
    }
    // No poll ever answers: what the page shows came with the page itself.
    await p.route('**/api/overview', (route) => route.abort());
    const failed: string[] = [];
    p.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    await p.goto(served.url); // resolves at the load event
    await p.screenshot({ path: join(mkdtempSync(join(tmpdir(), 'dashboard-first-paint-')), 'first-paint.png') });
    // Read at once, without waiting for anything.
    const card = p.locator('[data-queue="first-paint"]');
    expect(await card.count()).toBe(1);
    const stat = (key: string) => card.locator(`[data-stat="${key}"]`).textContent();
    expect([await stat('total'), await stat('pending'), await stat('locked'), await stat('handled')]).toEqual(['7', '7', '2', '0']);
    expect(await p.locator('section.card h2').allTextContents()).toEqual(['Redis memory', 'first-paint', 'x</script><b>y']);
    expect(await p.locator('#status').textContent()).toMatch(/^updated /);
    expect(await p.locator('#prefix').textContent()).toBe(keyPrefix);
    expect(await p.locator('#memory').textContent()).toMatch(/^\d+(\.\d)? (B|KB|MB|GB)$/);
    expect(await p.locator('#empty').isVisible()).toBe(false);
    // The charts of that one snapshot: a time axis around now (not one padded by years), and the point drawn.
    const now = Date.now() / 1000;
    const x = await p.evaluate<number[]>('[memory.chart.scales.x.min, memory.chart.scales.x.max, queues.get("first-paint").charts.requests.scales.x.max]');
    for (const t of x) expect(Math.abs(t - now), `x axis ${x.map((v) => new Date(v * 1000).toISOString()).join(' -> ')}`).toBeLessThan(300);
    // Pixels of a series' colour on a chart's canvas.
    const drawn = (selector: string, rgb: [number, number, number]) =>
      p.evaluate(({ selector, rgb }) => {
        const canvas = document.querySelector<HTMLCanvasElement>(`${selector} canvas`);
        const data = canvas?.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data ?? new Uint8ClampedArray();
        let n = 0;
        for (let i = 0; i + 3 < data.length; i += 4) {
          const near = [0, 1, 2].every((c) => Math.abs((data[i + c] ?? 0) - (rgb[c] ?? 0)) < 24);
          if (near && (data[i + 3] ?? 0) > 200) n++;
        }
        return n;
      }, { selector, rgb });
    expect(await drawn('#memory-chart', [0x08, 0x91, 0xb2]), 'memory series').toBeGreaterThan(5);
    expect(await drawn('[data-queue="first-paint"] [data-chart="requests"]', [0x3b, 0x82, 0xf6]), 'pending series').toBeGreaterThan(5);

    for (const path of ['favicon.ico', 'favicon.svg']) {
      const icon = await fetch(`${served.url}${path}`);
      expect(icon.status, path).toBe(200);
      expect(icon.headers.get('content-type'), path).toContain('image/svg+xml');
      expect(await icon.text(), path).toMatch(/^<svg /);
    }
    expect(failed).toEqual([]);
  } finally {
    await p.close();
    await served.close();
    for (const name of ['first-paint', 'x</script><b>y']) await storage.requestQueue(name).delete();
    await storage.close();
  }
});

it('masks the password of the Redis URL, refuses a requeue without the page header and a foreign Host', async () => {
  // An own server with an ACL user, so the dashboard really logs in with the password it must hide.
  const server = await startRedisServer({ args: ['--user', 'ops', 'on', '>s3cret-pass', '~*', '&*', '+@all'] });
  const masked = await startDashboard({ redis: `redis://ops:s3cret-pass@127.0.0.1:${server.port}`, port: 0 });
  try {
    const p = await browser.newPage();
    await p.goto(masked.url);
    await p.waitForFunction(() => document.getElementById('status')?.dataset.at !== '', undefined, { timeout: 15_000 });
    expect(await p.locator('#redis').textContent()).toBe(`redis://ops:***@127.0.0.1:${server.port}`);
    expect(await p.content()).not.toContain('s3cret-pass');
    expect(await p.locator('#empty').isVisible()).toBe(true); // no queue on this server
    await p.close();
    const res = await fetch(`${masked.url}api/queues/x/dead-letters/y/requeue`, { method: 'POST' });
    expect(res.status).toBe(403);
    const port = new URL(masked.url).port;
    const status = await new Promise<number | undefined>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/api/overview', headers: { host: `rebound.example:${port}` } }, (r) => {
        r.resume();
        resolve(r.statusCode);
      }).on('error', reject).end();
    });
    expect(status).toBe(421);
  } finally {
    await masked.close();
    await server.destroy();
  }
});

it('the built package serves the page and uPlot from its own dist, with no URL outside the dashboard', async () => {
  const built = await import('crawlee-redis-queue');
  const served = await built.startDashboard({ redis: inject('redisUrl'), port: 0 });
  try {
    const html = await (await fetch(served.url)).text();
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.sort()).toEqual(['/app.js', '/favicon.svg', '/style.css', '/vendor/uPlot.iife.min.js', '/vendor/uPlot.min.css']);
    for (const ref of refs) {
      const res = await fetch(new URL(ref, served.url));
      expect(res.status, ref).toBe(200);
      expect((await res.text()).length, ref).toBeGreaterThan(100);
    }
  } finally {
    await served.close();
  }
});
