// The standalone worker (src/worker.ts): small enough to read, only the packages' public entries, shown whole in the
// README, and run as it is, two processes on one queue crawl a small local site with each page fetched once.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { startMultiHostSite, type MultiHostSite } from './helpers/multi-host-site.js';

const SOURCE = fileURLToPath(new URL('../src/worker.ts', import.meta.url));
const BUILT = fileURLToPath(new URL('../dist/worker.js', import.meta.url));
const README = fileURLToPath(new URL('../README.md', import.meta.url));
/** The packages a reader copies the worker with: the published plugins' main entries, Crawlee, ioredis. */
const ALLOWED_IMPORTS = ['crawlee', 'crawlee-redis-queue', 'crawlee-bloom-dedup', 'crawlee-scrapy-fingerprint', 'ioredis'];

const redisUrl = inject('redisUrl');
const queueName = `worker-${randomUUID().slice(0, 8)}`;
let site: MultiHostSite | undefined;

afterAll(async () => {
  await site?.close();
  // Every key of this crawl carries the random queue name (queue, dupefilter, dataset, worker stats).
  const redis = new Redis(redisUrl);
  const keys: string[] = [];
  for await (const batch of redis.scanStream({ match: `*${queueName}*`, count: 1000 })) keys.push(...(batch as string[]));
  if (keys.length > 0) await redis.del(...keys);
  await redis.srem('crawlee:rq:index', queueName);
  await redis.srem('crawlee:ds:index', queueName);
  redis.disconnect();
});

function runWorker(env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BUILT], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('src/worker.ts, the worker to copy', () => {
  const source = readFileSync(SOURCE, 'utf8');

  it('is at most 150 lines and imports only the public entries of the packages (never /internal)', () => {
    expect(source.split('\n').length).toBeLessThanOrEqual(150);
    const imports = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    for (const specifier of imports) expect(ALLOWED_IMPORTS, `import '${specifier}'`).toContain(specifier);
  });

  it('a bad CONCURRENCY or START_URL: one line naming it, exit 1, nothing written to Redis', async () => {
    const bad = `${queueName}-bad`;
    for (const env of [{ CONCURRENCY: '0' }, { CONCURRENCY: 'abc' }, { START_URL: 'notaurl' }]) {
      const { code, output } = await runWorker({ REDIS_URL: redisUrl, QUEUE: bad, START_URL: 'http://127.0.0.1:9/', ...env });
      expect(code, output).toBe(1);
      expect(output).toMatch(/^worker failed: Error: (CONCURRENCY|START_URL) must be/m);
      expect(output).not.toMatch(/^\s+at /m);
    }
    const redis = new Redis(redisUrl);
    try {
      const keys: string[] = [];
      for await (const batch of redis.scanStream({ match: `*${bad}*`, count: 1000 })) keys.push(...(batch as string[]));
      expect(keys).toEqual([]);
    } finally {
      redis.disconnect();
    }
  });

  it('is shown whole in the README', () => {
    expect(readFileSync(README, 'utf8')).toContain(source.trimEnd());
  });

  it('run as it is in 2 processes on one queue: every page of the site fetched once, every record in the dataset', async () => {
    expect(existsSync(BUILT), `${BUILT} is missing: run \`npm run build\``).toBe(true);
    // Slow pages, so both processes are busy at once.
    site = await startMultiHostSite({ hosts: 1, pagesPerHost: 12, delayMs: 40 });
    const env = { REDIS_URL: redisUrl, START_URL: site.startUrl, QUEUE: queueName, CONCURRENCY: '2' };
    const runs = await Promise.all([runWorker(env), runWorker(env)]);
    for (const run of runs) expect(run.code, run.output).toBe(0);

    const fetched = site.hits.filter((h) => h.status === 200).map((h) => new URL(h.path, site!.origins[0]).href);
    expect([...fetched].sort()).toEqual([...site.pageUrls].sort());

    const redis = new Redis(redisUrl);
    try {
      const items = (await redis.lrange(`{crawlee:ds:${queueName}}:items`, 0, -1)).map((s) => JSON.parse(s) as { url: string; title: string });
      expect(items.map((i) => i.url).sort()).toEqual([...site.pageUrls].sort());
      for (const item of items) expect(item.title).not.toBe('');
    } finally {
      redis.disconnect();
    }
  });
});
