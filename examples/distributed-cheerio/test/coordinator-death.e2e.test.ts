import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { RedisQueueAdmin } from 'crawlee-redis-queue';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { sleep } from '@crawlee-distributed/test-utils';
import { POSTGRES_DOCS_DIR } from '../src/options.js';
import { walkSiteLinks } from '../src/site/walk-links.js';
import { crawl, outputDir, runCli } from './helpers/run-cli.js';
import { countersOf, dropQueueKeys, isAlive, spawnCli, waitForPages } from './helpers/spawn-cli.js';

const redisUrl = inject('redisUrl');
const queueName = `coordinator-death-${randomUUID().slice(0, 8)}`;
const dir = outputDir();
afterAll(async () => {
  await dropQueueKeys(redisUrl, queueName);
  rmSync(dir, { recursive: true, force: true });
});

async function stats() {
  const admin = new RedisQueueAdmin({ redis: redisUrl, name: queueName });
  try {
    return await admin.stats();
  } finally {
    await admin.close();
  }
}

describe('SIGKILL of the coordinator of a served folder, then a rerun with the same --queue', () => {
  const output = join(dir, 'pages.jsonl');
  const args = ['--site', POSTGRES_DOCS_DIR, '--queue', queueName, '--redis', redisUrl, '--workers', '2', '--output', output];
  let firstOrigin = '';

  it('the workers stop and hand their locks back; nothing is marked failed', async () => {
    const run = spawnCli([...args, '--concurrency', '2']);
    try {
      await waitForPages(redisUrl, queueName, 40);
    } finally {
      run.child.kill('SIGKILL');
    }
    await run.exited;
    firstOrigin = /serving \S+ at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(run.output())?.[1] ?? '';
    expect(firstOrigin).not.toBe('');
    const pids = run.workerPids();
    expect(pids).toHaveLength(2);
    for (let i = 0; i < 60 && pids.some(isAlive); i++) await sleep(250);
    expect(pids.filter(isAlive), 'workers still crawling a dead site').toEqual([]);
    const counters = await countersOf(redisUrl, queueName);
    expect(Number(counters.failed ?? 0), 'requests marked failed because the coordinator vanished').toBe(0);
    const s = await stats();
    expect(s.locked, 'locks left behind by the stopped workers').toBe(0);
    expect(s.pending).toBeGreaterThan(0);
  }, 200_000);

  it('the rerun serves the folder at the same origin and resumes: every page once in the output, none crawled again', async () => {
    const { summary, records, result } = await crawl(dir, args, {});
    expect(result.stdout + result.stderr).toContain(`at ${firstOrigin} (the origin queue "${queueName}" was seeded with)`);
    expect(result.stdout + result.stderr).toMatch(/resuming queue/);
    expect(summary.allPagesCrawled).toBe(true);
    expect(summary.failedRequests).toBe(0);
    const expected = walkSiteLinks(POSTGRES_DOCS_DIR).files.length;
    // The output holds the pages of both runs: the first run's records are merged in, not lost.
    expect(records).toHaveLength(expected);
    expect(new Set(records.map((r) => r.fingerprint)).size).toBe(expected);
    // The second run fetched only what the first did not finish (at most its in-flight pages again).
    expect(summary.httpFetches!.total).toBeLessThan(expected);
  }, 300_000);

  it('a third run on the finished queue says so, exits 0 and leaves the output alone', async () => {
    const before = readFileSync(output, 'utf8');
    const result = await runCli([...args, '--summary-json', join(dir, 'third.json')], {}, 60_000);
    const text = result.stdout + result.stderr;
    expect(result.code).toBe(0);
    expect(text).toContain(`queue ${queueName} on ${redisUrl} is finished`);
    expect(text).toContain('drop');
    expect(text).not.toContain('started worker');
    expect(readFileSync(output, 'utf8')).toBe(before);
  }, 90_000);
});

describe('SIGKILL of the seeding run while a --join run on the same machine crawls its served folder', () => {
  const joinQueue = `join-death-${randomUUID().slice(0, 8)}`;
  afterAll(() => dropQueueKeys(redisUrl, joinQueue));

  it("the joined workers stop and hand their locks back; none of the served folder's requests is marked failed", async () => {
    const seeder = spawnCli([
      '--site', POSTGRES_DOCS_DIR, '--queue', joinQueue, '--redis', redisUrl, '--workers', '1', '--concurrency', '1',
      '--output', join(dir, 'seeder.jsonl'),
    ]);
    let joiner: ReturnType<typeof spawnCli> | undefined;
    try {
      await waitForPages(redisUrl, joinQueue, 5);
      joiner = spawnCli(['--join', '--queue', joinQueue, '--redis', redisUrl, '--workers', '1', '--concurrency', '2', '--output', join(dir, 'joiner.jsonl')]);
      for (let i = 0; i < 600 && joiner.workerPids().length === 0; i++) await sleep(50);
      // Both runs' workers are named <host>/worker-1: wait for pages well past what the slow seeder does alone.
      await waitForPages(redisUrl, joinQueue, 60);
    } finally {
      seeder.child.kill('SIGKILL');
    }
    const code = await joiner.exited;
    const text = joiner.output();
    expect(text).toMatch(/refuses connections; handing back my locks and stopping/);
    expect(code).toBe(1); // pages are left: the crawl is not complete, but nothing is lost
    const counters = await countersOf(redisUrl, joinQueue);
    expect(Number(counters.failed ?? 0)).toBe(0);
    for (let i = 0; i < 40 && (await stats2(joinQueue)).locked > 0; i++) await sleep(250);
    expect((await stats2(joinQueue)).locked).toBe(0);
    expect((await stats2(joinQueue)).pending).toBeGreaterThan(0);
  }, 240_000);
});

async function stats2(name: string) {
  const admin = new RedisQueueAdmin({ redis: redisUrl, name });
  try {
    return await admin.stats();
  } finally {
    await admin.close();
  }
}
