import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { snippetUnder, transpileSnippet } from '@crawlee-distributed/test-utils/readme';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { RedisQueueAdmin } from '../../src/admin/redis-queue-admin.js';
import { RedisStorageClient } from '../../src/storage/redis-storage-client.js';

// The README's Quick start, taken from the README itself (so this test follows the doc), run as a new user does:
// three processes started at once in ONE folder. Every page's record must be kept exactly once, in one place the
// user can read back, and each worker must finish with its final stats published.
const README = fileURLToPath(new URL('../../README.md', import.meta.url));
const REPO_NODE_MODULES = fileURLToPath(new URL('../../../../node_modules', import.meta.url));
const PAGES = 90;
const WORKERS = 3;

/** A small site: page i links to three others, so the crawl fans out and every page is reached. */
function startSite(): Promise<Server> {
  const server = createServer((req, res) => {
    const i = Number(/^\/p(\d+)\.html$/.exec(req.url ?? '')?.[1] ?? (req.url === '/' ? 0 : NaN));
    if (!Number.isInteger(i) || i < 0 || i >= PAGES) {
      res.writeHead(404).end();
      return;
    }
    const links = [(i + 1) % PAGES, (i * 7 + 3) % PAGES, (i * 13 + 5) % PAGES].map(
      (j) => `<a href="/p${j}.html">${j}</a>`,
    );
    // A little latency, so the three workers overlap instead of one taking everything.
    setTimeout(() => {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<html><head><title>Page ${i}</title></head><body>${links.join(' ')}</body></html>`);
    }, 30);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function runWorker(
  file: string,
  cwd: string,
  redisUrl: string,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], {
      cwd,
      env: { ...process.env, REDIS_URL: redisUrl, CRAWLEE_LOG_LEVEL: 'WARNING' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`a Quick start worker did not exit within 120 s:\n${output}`));
    }, 120_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('the README Quick start, three processes in one folder', () => {
  let site: Server;
  let folder: string;
  beforeAll(async () => {
    site = await startSite();
    folder = mkdtempSync(join(tmpdir(), 'quick-start-'));
    // The folder is a user's project that installed the packages.
    symlinkSync(REPO_NODE_MODULES, join(folder, 'node_modules'), 'dir');
  });
  afterAll(async () => {
    await new Promise((resolve) => site.close(resolve));
    rmSync(folder, { recursive: true, force: true });
  });

  it('keeps every record of every worker exactly once, readable from one Redis dataset; every worker finishes', async () => {
    const redisUrl = inject('redisUrl');
    const name = `quick-start-${randomUUID().slice(0, 8)}`;
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    const { code } = snippetUnder(README, 'Quick start');
    expect(code).toContain("'my-crawl'");
    expect(code).toContain("'https://crawlee.dev'");
    const source = transpileSnippet(
      code
        .replaceAll("'my-crawl'", JSON.stringify(name))
        .replaceAll("'https://crawlee.dev'", JSON.stringify(`${origin}/`)),
    );
    const file = join(folder, 'crawl.mjs');
    writeFileSync(file, source);

    const admin = new RedisQueueAdmin({ redis: redisUrl, name });
    const storage = new RedisStorageClient({ redis: redisUrl, workerStats: false });
    try {
      const results = await Promise.all(
        Array.from({ length: WORKERS }, () => runWorker(file, folder, redisUrl)),
      );
      for (const result of results) expect(result.code, result.output).toBe(0);

      // Every page once, in the dataset named after the queue.
      // The start URL `/` (served as page 0) and /p0.html ... /p89.html are all different URLs.
      const expected = [`${origin}/`, ...Array.from({ length: PAGES }, (_, i) => `${origin}/p${i}.html`)];
      const { items, total } = await storage.dataset(name).listItems({ limit: 10_000 });
      expect(total).toBe(expected.length);
      const urls = items.map((item) => (item as { url: string }).url);
      expect(urls.length).toBe(expected.length);
      expect(new Set(urls)).toEqual(new Set(expected));
      // Nothing went to per-process files in the shared folder (no ./storage at all).
      const storageDir = join(folder, 'storage');
      expect(existsSync(storageDir) ? readdirSync(storageDir, { recursive: true }) : []).toEqual([]);

      // Each worker finished with `requestQueue.close()`: stopped, and its counts add up to the queue's.
      const workers = await admin.workers();
      expect(workers).toHaveLength(WORKERS);
      expect(workers.every((w) => w.state === 'stopped')).toBe(true);
      expect(workers.filter((w) => w.handled > 0).length).toBeGreaterThanOrEqual(2);
      expect(workers.reduce((sum, w) => sum + w.handled, 0)).toBe(expected.length);
      expect((await admin.crawlStats()).handled).toBe(expected.length);
    } finally {
      await storage.dataset(name).delete();
      await storage.close();
      await admin.dropHashTag();
      await admin.close();
    }
  }, 180_000);
});
