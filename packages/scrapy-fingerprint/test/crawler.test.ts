import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { CheerioCrawler, Configuration, log, RequestQueue } from 'crawlee';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fingerprint, fingerprintTransform, scrapyUniqueKey, withScrapyFingerprint } from '../src/index.js';
import { UNIQUE_KEY_TRANSFORM } from '../src/internal.js';
import { PACKAGE_DIR } from './built-dist.js';

// A real CheerioCrawler against a local HTTP server, on an in-memory queue: every add path goes through the hooks.
let server: Server;
let base: string;

const LINKS = [
  '/page?b=2&a=1', '/page?a=1&b=2', // one request: the query is sorted
  '/slash/', '/slash', // two requests: Scrapy keeps the trailing slash (Crawlee's uniqueKey would merge them)
  '/p', '/p?utm_source=x', // two requests: Scrapy keeps utm_* (Crawlee's uniqueKey would drop it)
  '/frag#a', '/frag#b', // one request: fragments are dropped
  '/skip-me',
];

// A page whose links Scrapy would not all request: Crawlee hands every one of them to transformRequestFunction.
const MIXED_LINKS = [
  '/good-1', 'mailto:someone@example.com', 'javascript:void(0)', 'tel:+420123456789', '/good-2',
  'http://127.0.0.1:99999/bad-port', 'data:text/plain,x', '/good-3?b=2&a=1',
];

beforeAll(async () => {
  log.setLevel(log.LEVELS.WARNING);
  server = createServer((req, res) => {
    res.setHeader('content-type', 'text/html');
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/') res.end(`<html><body>${LINKS.map((l) => `<a href="${l}">x</a>`).join('')}</body></html>`);
    else if (path === '/mixed') {
      res.end(`<html><body>${MIXED_LINKS.map((l) => `<a href="${l}">x</a>`).join('')}</body></html>`);
    }
    else res.end('<html><body>leaf</body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

interface Seen {
  url: string;
  method: string;
  uniqueKey: string;
  payload?: string;
  label?: string;
}

function pathsOf(seen: Seen[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of seen) {
    const u = new URL(s.url);
    const key = u.pathname;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

describe('Crawlee hooks in a real CheerioCrawler run', () => {
  it('withScrapyFingerprint sets the fingerprint on every add path and dedups like Scrapy', async () => {
    const config = new Configuration({ persistStorage: false });
    const queue = withScrapyFingerprint(await RequestQueue.open(`fp-${randomUUID()}`, { config }));
    const seen: Seen[] = [];
    const crawler = new CheerioCrawler(
      {
        requestQueue: queue,
        maxConcurrency: 4,
        requestHandlerTimeoutSecs: 60,
        async requestHandler({ request, enqueueLinks, addRequests }) {
          seen.push({ url: request.url, method: request.method, uniqueKey: request.uniqueKey,
            payload: request.payload, label: request.label });
          if (request.label === 'root') {
            await enqueueLinks({ selector: 'a', transformRequestFunction: (r) => (r.url.endsWith('/skip-me') ? false : r) });
            await addRequests([
              { url: `${base}/ctx?y=1&x=2` },
              { url: `${base}/ctx?x=2&y=1` },
              { url: `${base}/post`, method: 'POST', payload: 'a=1' },
              { url: `${base}/post`, method: 'POST', payload: 'a=2' },
              { url: `${base}/post`, method: 'POST', payload: 'a=2' },
              { url: `${base}/again`, userData: { dontFilter: true } },
              { url: `${base}/again`, userData: { dontFilter: true } },
              { url: `${base}/explicit`, uniqueKey: 'my-own-key' },
              { url: `${base}/explicit?other`, uniqueKey: 'my-own-key' },
            ]);
          }
        },
      },
      config,
    );
    await crawler.addRequests([`${base}/added?b=1&a=2`, { url: `${base}/added?a=2&b=1` }]);
    await crawler.run([{ url: `${base}/`, label: 'root' }, { url: `${base}/?`, label: 'root' }]);

    expect(pathsOf(seen)).toEqual({
      '/': 1, // start requests: "/" and "/?" have one fingerprint
      '/added': 1, // crawler.addRequests
      '/page': 1, '/slash/': 1, '/slash': 1, '/p': 2, '/frag': 1, // enqueueLinks
      '/ctx': 1, '/post': 2, '/again': 2, '/explicit': 1, // context.addRequests
    });
    for (const s of seen) {
      if (s.url.includes('/explicit')) {
        expect(s.uniqueKey).toBe('my-own-key');
        continue;
      }
      const fp = fingerprint({ url: s.url, method: s.method, payload: s.payload });
      if (s.url.endsWith('/again')) expect(s.uniqueKey).toMatch(new RegExp(`^${fp}:[0-9a-f-]{36}$`));
      else expect(s.uniqueKey, s.url).toBe(fp);
    }
    expect(existsSync(join(PACKAGE_DIR, 'storage'))).toBe(false);
  });

  it('fingerprintTransform and scrapyUniqueKey work without wrapping the queue', async () => {
    const config = new Configuration({ persistStorage: false });
    const queue = await RequestQueue.open(`fp-${randomUUID()}`, { config });
    const seen: Seen[] = [];
    const options = { recipe: 'scrapy-redis' as const };
    const crawler = new CheerioCrawler(
      {
        requestQueue: queue,
        async requestHandler({ request, enqueueLinks }) {
          seen.push({ url: request.url, method: request.method, uniqueKey: request.uniqueKey, label: request.label });
          if (request.label === 'root') {
            await enqueueLinks({
              selector: 'a',
              transformRequestFunction: fingerprintTransform(options, (r) =>
                r.url.endsWith('/skip-me') ? false : { ...r, label: 'leaf' },
              ),
            });
          }
        },
      },
      config,
    );
    const start = { url: `${base}/`, label: 'root' };
    await crawler.run([{ ...start, uniqueKey: scrapyUniqueKey(start, options) }]);
    expect(pathsOf(seen)).toEqual({ '/': 1, '/page': 1, '/slash/': 1, '/slash': 1, '/p': 2, '/frag': 1 });
    for (const s of seen) {
      expect(s.uniqueKey).toBe(fingerprint({ url: s.url }, options));
      if (s.url !== `${base}/`) expect(s.label).toBe('leaf');
    }
  });

  it('exposes the unique-key transform for withDedup (docs/enqueue-filter-seam.md) and wraps only once', async () => {
    const config = new Configuration({ persistStorage: false });
    const queue = await RequestQueue.open(`fp-${randomUUID()}`, { config });
    const wrapped = withScrapyFingerprint(queue, { includeHeaders: ['Accept'] });
    expect(withScrapyFingerprint(wrapped)).toBe(queue);
    const transform = (wrapped as unknown as Record<symbol, (r: object) => { uniqueKey: string }>)[UNIQUE_KEY_TRANSFORM]!;
    expect(UNIQUE_KEY_TRANSFORM).toBe(Symbol.for('crawlee-distributed/unique-key-transform@1'));
    const req = { url: `${base}/x`, headers: { Accept: 'text/html' } };
    expect(transform(req).uniqueKey).toBe(fingerprint(req, { includeHeaders: ['Accept'] }));
    expect(transform({ url: `${base}/x`, uniqueKey: 'k' }).uniqueKey).toBe('k');
    // A URL Scrapy rejects fails the whole call before anything is added.
    await expect(wrapped.addRequests([{ url: `${base}/ok` }, { url: 'http://h:99999/' }])).rejects.toThrow(/Port out of range/);
    expect(queue.getTotalCount()).toBe(0);
  });
});

describe('links Scrapy would not request (mailto:, javascript:, tel:, bad port) do not fail the page', () => {
  async function crawlMixed(
    queue: RequestQueue,
    config: Configuration,
    enqueue: (ctx: { enqueueLinks: (o: object) => Promise<unknown> }) => Promise<unknown>,
  ): Promise<{ seen: Seen[]; failed: string[] }> {
    const seen: Seen[] = [];
    const failed: string[] = [];
    const crawler = new CheerioCrawler(
      {
        requestQueue: queue,
        maxRequestRetries: 0,
        async requestHandler({ request, enqueueLinks }) {
          seen.push({ url: request.url, method: request.method, uniqueKey: request.uniqueKey, label: request.label });
          if (request.label === 'mixed') await enqueue({ enqueueLinks });
        },
        failedRequestHandler({ request }, error) {
          failed.push(`${request.url}: ${error.message}`);
        },
      },
      config,
    );
    await crawler.run([{ url: `${base}/mixed`, label: 'mixed' }]);
    return { seen, failed };
  }

  it('fingerprintTransform skips them (debug log) and the good links are crawled', async () => {
    const config = new Configuration({ persistStorage: false });
    const queue = await RequestQueue.open(`fp-${randomUUID()}`, { config });
    const debug = vi.spyOn(log, 'debug');
    const skipped: string[] = [];
    try {
      const { seen, failed } = await crawlMixed(queue, config, async ({ enqueueLinks }) => {
        await enqueueLinks({ selector: 'a', transformRequestFunction: fingerprintTransform(),
          onSkippedRequest: ({ url }: { url: string }) => skipped.push(url) });
        // Strategy 'all' keeps every http(s) URL: the transform alone must keep the rest out.
        await enqueueLinks({ selector: 'a', strategy: 'all', transformRequestFunction: fingerprintTransform() });
      });
      expect(failed).toEqual([]);
      expect(pathsOf(seen)).toEqual({ '/mixed': 1, '/good-1': 1, '/good-2': 1, '/good-3': 1 });
      for (const s of seen.filter((x) => x.label !== 'mixed')) expect(s.uniqueKey).toBe(fingerprint({ url: s.url }));
      expect(skipped.sort()).toEqual(['data:text/plain,x', 'javascript:void(0)', 'mailto:someone@example.com',
        'tel:+420123456789']);
      const loggedUrls = debug.mock.calls
        .filter(([message]) => String(message).startsWith('fingerprintTransform'))
        .map(([, data]) => (data as { url: string }).url);
      expect(new Set(loggedUrls)).toEqual(new Set(skipped));
    } finally {
      debug.mockRestore();
    }
  });

  it('a queue wrapped with withScrapyFingerprint never sees them through enqueueLinks (Crawlee filters first)', async () => {
    const config = new Configuration({ persistStorage: false });
    const queue = withScrapyFingerprint(await RequestQueue.open(`fp-${randomUUID()}`, { config }));
    const { seen, failed } = await crawlMixed(queue, config, async ({ enqueueLinks }) => {
      await enqueueLinks({ selector: 'a' });
      await enqueueLinks({ selector: 'a', strategy: 'all' });
      await enqueueLinks({ urls: [`${base}/good-1`, 'mailto:x@example.com', 'http://127.0.0.1:99999/x'], strategy: 'all' });
    });
    expect(failed).toEqual([]);
    expect(pathsOf(seen)).toEqual({ '/mixed': 1, '/good-1': 1, '/good-2': 1, '/good-3': 1 });
    for (const s of seen.filter((x) => x.label !== 'mixed')) expect(s.uniqueKey).toBe(fingerprint({ url: s.url }));
  });
});
