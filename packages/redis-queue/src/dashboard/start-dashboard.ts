import { createReadStream, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { RedisOptions } from 'ioredis';
import { log } from 'crawlee';
import sirv from 'sirv';
import { integerOption } from '../options/option-ranges.js';
import { ConnectionHandle, type RedisConnectionOption } from '../core/connection.js';
import { assertKeyPrefix } from '../core/keys.js';
import { dashboardAssets } from './assets.js';
import { DashboardApi } from './dashboard-api.js';
import { describeRedis } from './describe-redis.js';
import { renderInitialPage } from './initial-page.js';
import { checkKnownOptions } from '../options/known-options.js';

/** Options of {@link startDashboard}. */
export interface DashboardOptions {
  /** A `redis://` URL, or an ioredis `Redis` or `Cluster` (never closed by the dashboard).
   * @defaultValue `process.env.REDIS_URL`, else `'redis://127.0.0.1:6379'` */
  redis?: RedisConnectionOption;
  /** Extra ioredis options for a connection created from a URL. */
  redisOptions?: RedisOptions;
  /** Key prefix the workers use. @defaultValue 'crawlee' */
  keyPrefix?: string;
  /** TCP port, 0 to 65,535; 0 picks a free one (see the returned `url`). @defaultValue 8370 */
  port?: number;
  /** Interface to listen on. The dashboard has no authentication and can requeue dead letters: anything other than
   * loopback logs a warning. @defaultValue '127.0.0.1' */
  host?: string;
}

/** A running dashboard. */
export interface DashboardHandle {
  /** Where it listens, e.g. `http://127.0.0.1:8370/`. */
  url: string;
  /** Stops the HTTP server and closes the Redis connection if the dashboard created it. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

function hostnameOf(header: string | undefined): string {
  if (!header) return '';
  const bracket = /^\[([^\]]+)\]/.exec(header);
  return bracket ? bracket[1]! : header.replace(/:\d+$/, '');
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

function file(res: ServerResponse, path: string, type: string): void {
  res.writeHead(200, { 'content-type': type, 'cache-control': 'max-age=3600' });
  createReadStream(path).pipe(res);
}

/**
 * Starts the web dashboard: one live page for every request queue under `keyPrefix` (counts over time as charts:
 * pending, handled, rate, dedup hits, dead letters, Redis memory; the worker table; the dead letters with their
 * reasons and a requeue button; on a polite queue its politeness panel, on a sharded one its per-shard bar chart)
 * and its JSON API:
 * - `GET /api/overview`: every queue's stats, crawl-wide counters and dedup hits (`RedisQueueAdmin.crawlStats()`),
 *   dead letters (newest 200), workers (`RedisQueueAdmin.workers()`), politeness
 *   (`RedisQueueAdmin.politenessStats({ top: 10 })`), per-shard counters (`RedisQueueAdmin.shardStats()`), and the
 *   Redis memory;
 * - `POST /api/queues/<queue>/dead-letters/<id>/requeue`: puts one dead letter back (header `x-dashboard: 1`
 *   required, so a page on another origin cannot trigger it without a CORS preflight, which is never granted).
 * The page arrives with a first snapshot in it (it shows data from its first paint), then polls the API every 2 s
 * and keeps the time series in the browser. Charts use uPlot, served from the
 * package (no CDN; works offline). Credentials in the Redis URL are masked on the page.
 *
 * @param options - see {@link DashboardOptions}
 * @returns the URL and `close()`
 * @throws {@link InvalidOptionsError} for a bad port, key prefix or Redis URL
 */
export async function startDashboard(options: DashboardOptions = {}): Promise<DashboardHandle> {
  checkKnownOptions<DashboardOptions>('startDashboard options', options, { redis: true, redisOptions: true, keyPrefix: true, port: true, host: true });
  const port = integerOption('port', options.port);
  const host = options.host ?? '127.0.0.1';
  const keyPrefix = options.keyPrefix ?? 'crawlee';
  assertKeyPrefix('keyPrefix', keyPrefix);
  const assets = dashboardAssets();
  const connection = new ConnectionHandle(options.redis, options.redisOptions);
  const api = new DashboardApi(connection, keyPrefix, describeRedis(options.redis));
  const page = sirv(assets.pageDir, { dev: false, etag: true });
  const template = readFileSync(join(assets.pageDir, 'index.html'), 'utf8');

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // On loopback, a page elsewhere could reach us through a DNS name rebound to 127.0.0.1: accept loopback names only.
    if (LOOPBACK.has(host) && !LOOPBACK.has(hostnameOf(req.headers.host))) return json(res, 421, { error: 'open the dashboard as 127.0.0.1 or localhost' });
    const url = new URL(req.url ?? '/', 'http://dashboard');
    if (url.pathname === '/api/overview' && req.method === 'GET') return json(res, 200, await api.overview());
    const requeue = /^\/api\/queues\/([^/]+)\/dead-letters\/([^/]+)\/requeue$/.exec(url.pathname);
    if (requeue) {
      if (req.method !== 'POST') return json(res, 405, { error: 'use POST' });
      if (req.headers['x-dashboard'] !== '1') return json(res, 403, { error: 'send the header x-dashboard: 1 (the page does)' });
      const result = await api.requeue(decodeURIComponent(requeue[1]!), decodeURIComponent(requeue[2]!));
      return result ? json(res, 200, result) : json(res, 404, { error: `no queue named ${decodeURIComponent(requeue[1]!)}` });
    }
    if (url.pathname.startsWith('/api/')) return json(res, 404, { error: 'unknown API path' });
    if ((url.pathname === '/' || url.pathname === '/index.html') && req.method === 'GET') {
      // The first snapshot goes into the page itself: it shows data from its first paint. A Redis that does not
      // answer leaves the page to its polls, which say so.
      const overview = await api.overview().catch(() => undefined);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      return void res.end(renderInitialPage(template, overview));
    }
    // Browsers ask for /favicon.ico whatever the page links: the same SVG icon.
    if (url.pathname === '/favicon.ico') return file(res, join(assets.pageDir, 'favicon.svg'), 'image/svg+xml');
    if (url.pathname === '/vendor/uPlot.iife.min.js') return file(res, assets.uplotJs, 'text/javascript; charset=utf-8');
    if (url.pathname === '/vendor/uPlot.min.css') return file(res, assets.uplotCss, 'text/css; charset=utf-8');
    page(req, res, () => json(res, 404, { error: 'not found' }));
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shown}:${address.port}/`;
  if (!LOOPBACK.has(host)) {
    log.warning(`dashboard listens on ${url} (host ${host}): it has no authentication and can requeue dead letters; anyone who can reach this address can use it`);
  }
  return {
    url,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await connection.close();
    },
  };
}
