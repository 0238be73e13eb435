import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startRedisServer, type RedisServerHandle } from '@crawlee-distributed/test-utils';
import { CheerioCrawler, Configuration, RequestQueue, type StorageClient } from 'crawlee';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisBloomDedupStore, RedisPermissionError, withDedup } from '../src/index.js';

// A whole crawl (queue + Bloom dedup on the queue's tag + worker stats + Redis dataset + the CLI) as an ACL user
// that may touch only the crawl's keys: the least-privilege rules the README documents. crawlee-redis-queue is
// used through its built dist (neither package depends on the other); a missing build fails, never skips.
const queueDist = fileURLToPath(new URL('../../redis-queue/dist/index.js', import.meta.url));
const cliBin = fileURLToPath(new URL('../../redis-queue/dist/cli/bin.js', import.meta.url));
const KEYS = '~{crawlee:rq:* ~crawlee:rq:index ~{crawlee:ds:* ~crawlee:ds:index';
// +info: ioredis' ready check (it waits while Redis loads its data) and the dashboard read INFO, which is @dangerous.
const COMMANDS = '+@all -@dangerous +info';
const LEAST = `${KEYS} ${COMMANDS}`;
const PASSWORD = 'acl-s3cret-19';

interface QueueModule {
  RedisStorageClient: new (options: Record<string, unknown>) => StorageClient & { close(): Promise<void> };
  RedisPermissionError: typeof RedisPermissionError;
}

function site(): Server {
  return createServer((req, res) => {
    const n = Number((req.url ?? '/').replace(/\D/g, '') || 0);
    const links = [n + 1, n + 2, 2 * n].filter((i) => i <= 30).map((i) => `<a href="/p${i}">p${i}</a>`).join('');
    res.setHeader('content-type', 'text/html');
    res.end(`<html><head><title>p${n}</title></head><body>${links}</body></html>`);
  });
}

function runCli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliBin, ...args], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, out, err }));
  });
}

describe('a least-privilege ACL user runs a whole crawl', () => {
  let server: RedisServerHandle;
  let http: Server;
  let base: string;
  let queueModule: QueueModule;
  const url = (user: string) => `redis://${user}:${PASSWORD}@127.0.0.1:${server.port}`;
  beforeAll(async () => {
    if (!existsSync(queueDist)) throw new Error(`${queueDist} is missing: npx turbo run build --filter=crawlee-redis-queue`);
    queueModule = (await import(/* @vite-ignore */ queueDist)) as QueueModule;
    server = await startRedisServer({
      aclUsers: [
        `user worker on >${PASSWORD} ${LEAST}`,
        `user nodataset on >${PASSWORD} ~{crawlee:rq:* ~crawlee:rq:index ${COMMANDS}`,
        `user noscripts on >${PASSWORD} ${KEYS} ${COMMANDS} -@scripting`,
      ],
    });
    http = site();
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    await new Promise((resolve) => http?.close(resolve));
    await server?.destroy();
  });

  async function crawl(user: string, name: string): Promise<{ handled: number; items: number }> {
    const storageClient = new queueModule.RedisStorageClient({ redis: url(user), datasets: 'redis', workerStats: true });
    let store: RedisBloomDedupStore | undefined;
    try {
      const config = new Configuration({ persistStorage: false, purgeOnStart: false, storageClient });
      const queue = await RequestQueue.open(name, { storageClient, config });
      store = new RedisBloomDedupStore({ redis: url(user), key: `{crawlee:rq:${name}}:bloom`, capacity: 10_000, errorRate: 1e-6 });
      withDedup(queue, { store });
      let handled = 0;
      const crawler = new CheerioCrawler(
        {
          requestQueue: queue,
          maxConcurrency: 4,
          async requestHandler({ $, enqueueLinks, pushData }) {
            handled++;
            await pushData({ title: $('title').text() });
            await enqueueLinks();
          },
        },
        config,
      );
      await crawler.run([`${base}/p1`]);
      const dataset = await storageClient.datasets().getOrCreate('default');
      const items = (await storageClient.dataset(dataset.id).listItems()).items.length;
      return { handled, items };
    } finally {
      await store?.close();
      await storageClient.close();
    }
  }

  it('queue, dedup store, worker stats, dataset and the CLI work with only the crawl keys and no @dangerous', async () => {
    const result = await crawl('worker', 'acl');
    expect(result.handled).toBe(30);
    expect(result.items).toBe(30);
    const stats = await runCli(['stats', 'acl', '--redis', url('worker'), '--json']);
    expect(stats.code, stats.err).toBe(0);
    expect(stats.err).toBe('');
    expect(JSON.parse(stats.out)).toMatchObject({ handled: 30 });
    expect(stats.out + stats.err).not.toContain(PASSWORD);
    const ls = await runCli(['ls', '--redis', url('worker')]);
    expect(ls.code, ls.err).toBe(0);
    expect(ls.out).toContain('acl');
  }, 120_000);

  it('a user without the dataset keys fails with RedisPermissionError naming the key to allow', async () => {
    const error = await crawl('nodataset', 'acl-nods').catch((e: unknown) => e);
    expect((error as Error).name, String(error)).toBe('RedisPermissionError');
    expect((error as Error).message).toMatch(/crawlee:ds:/);
    expect((error as Error).message).not.toContain(PASSWORD);
  }, 120_000);

  it('a user without @scripting fails with RedisPermissionError naming the command', async () => {
    const error = await crawl('noscripts', 'acl-noscripts').catch((e: unknown) => e);
    expect((error as Error).name, String(error)).toBe('RedisPermissionError');
    expect((error as RedisPermissionError).command).toMatch(/^eval/);
    expect((error as Error).message).toMatch(/\+eval/);
  }, 120_000);
});
