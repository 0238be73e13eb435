import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A site spread over several loopback hosts (127.0.0.2, 127.0.0.3, ...: all of 127.0.0.0/8 is loopback on Linux),
 * one HTTP server per address in the test process, for the fleet politeness tests. Every page links to every page
 * of its host and to the front page of the next host, so a crawl from host 0's front page (with
 * `--enqueue-strategy all`) reaches every page of every host, and each host has most of its pages pending at once
 * (what politeness must space out). The servers record each request's arrival and finish time (Date.now(), the
 * clock Redis TIME and the workers read too), so a test sees the gaps and the in-flight requests per host as the
 * site saw them.
 */
export interface MultiHostSiteOptions {
  /** Hosts, 1-200 (127.0.0.2 up to 127.0.0.201). */
  hosts: number;
  /** Pages of a host, front page included (index.html, p1.html, ...); a number or one per host. */
  pagesPerHost: number | ((host: number) => number);
  /** Milliseconds a page takes to answer (a slow site); default 0. */
  delayMs?: number | ((host: number, path: string) => number);
  /**
   * Answers 429 with `Retry-After` to the requests of `host` arriving within `forMs` from the arrival of its
   * `afterRequests + 1`-th request (the first `afterRequests` are answered normally).
   */
  throttle?: { host: number; afterRequests: number; forMs: number; retryAfter: string; status?: number };
}

/** One request as the site saw it. */
export interface SiteHit {
  host: number;
  path: string;
  /** Date.now() when the request arrived. */
  arrivedAt: number;
  /** Date.now() when the answer was sent, or the connection closed before that. */
  finishedAt: number;
  status: number;
  /** The connection closed before the answer was sent (the worker was killed). */
  aborted: boolean;
  /** Requests of this host in flight when this one arrived, itself included. */
  inFlightAtArrival: number;
  /** The client's port (which process sent it: {@link processOfClientPort}). */
  clientPort: number;
}

export interface MultiHostSite {
  /** Origins of the hosts, `http://127.0.0.<i + 2>:<port>/`. */
  origins: string[];
  /** Front page of host 0: the start URL. */
  startUrl: string;
  /** Every request so far, in order of arrival. */
  hits: SiteHit[];
  /** Every page URL of the site (what a complete crawl records). */
  pageUrls: string[];
  /** Most requests of each host in flight at once. */
  maxInFlight(): number[];
  /** Requests of `host` (answered, throttled or aborted), by arrival. */
  hitsOf(host: number): SiteHit[];
  close(): Promise<void>;
}

function pathsOf(pages: number): string[] {
  return Array.from({ length: pages }, (_, i) => (i === 0 ? '/index.html' : `/p${i}.html`));
}

function page(title: string, links: string[]): string {
  const anchors = links.map((href) => `<a href="${href}">${href}</a>`).join('\n');
  return `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1>\n${anchors}\n</body></html>`;
}

async function listen(server: Server, address: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, address, () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

/** Starts the site; close() stops every server. */
export async function startMultiHostSite(options: MultiHostSiteOptions): Promise<MultiHostSite> {
  const { hosts } = options;
  if (!Number.isInteger(hosts) || hosts < 1 || hosts > 200) throw new RangeError(`hosts must be 1-200, got ${hosts}`);
  const pagesOf = (h: number) => (typeof options.pagesPerHost === 'number' ? options.pagesPerHost : options.pagesPerHost(h));
  const delayOf = (h: number, path: string) =>
    options.delayMs === undefined ? 0 : typeof options.delayMs === 'number' ? options.delayMs : options.delayMs(h, path);
  const hits: SiteHit[] = [];
  const inFlight = new Array<number>(hosts).fill(0);
  const peak = new Array<number>(hosts).fill(0);
  const arrivals = new Array<number>(hosts).fill(0);
  let throttleFrom: number | undefined;
  const servers: Server[] = [];
  const origins: string[] = [];

  const handle = (h: number, req: IncomingMessage, res: ServerResponse) => {
    const arrivedAt = Date.now();
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    inFlight[h] = (inFlight[h] ?? 0) + 1;
    peak[h] = Math.max(peak[h] ?? 0, inFlight[h] ?? 0);
    arrivals[h] = (arrivals[h] ?? 0) + 1;
    const hit: SiteHit = { host: h, path, arrivedAt, finishedAt: arrivedAt, status: 0, aborted: false, inFlightAtArrival: inFlight[h] ?? 0, clientPort: req.socket.remotePort ?? 0 };
    hits.push(hit);
    let done = false;
    const finish = (aborted: boolean) => {
      if (done) return;
      done = true;
      hit.finishedAt = Date.now();
      hit.aborted = aborted;
      inFlight[h] = (inFlight[h] ?? 1) - 1;
    };
    res.once('close', () => finish(!res.writableFinished));
    const t = options.throttle;
    if (t !== undefined && t.host === h && (arrivals[h] ?? 0) > t.afterRequests) {
      throttleFrom ??= arrivedAt;
      if (arrivedAt - throttleFrom < t.forMs) {
        hit.status = t.status ?? 429;
        res.writeHead(hit.status, { 'retry-after': t.retryAfter, 'content-type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><title>Slow down</title>', () => finish(false));
        return;
      }
    }
    const paths = pathsOf(pagesOf(h));
    const known = paths.includes(path === '/' ? '/index.html' : path);
    const next = origins[(h + 1) % hosts] ?? '';
    const body = known
      ? page(`host ${h} ${path}`, [...paths, `${next}index.html`])
      : '<!doctype html><title>Not found</title>';
    setTimeout(() => {
      if (res.destroyed) return;
      hit.status = known ? 200 : 404;
      res.writeHead(hit.status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body, () => finish(false));
    }, delayOf(h, path));
  };

  for (let h = 0; h < hosts; h++) {
    const server = createServer((req, res) => handle(h, req, res));
    // Keep idle keep-alive sockets longer than the crawler does (see static-server.ts).
    server.keepAliveTimeout = 120_000;
    server.headersTimeout = 125_000;
    servers.push(server);
    origins.push(`http://127.0.0.${h + 2}:${await listen(server, `127.0.0.${h + 2}`)}/`);
  }
  const pageUrls = origins.flatMap((origin, h) => pathsOf(pagesOf(h)).map((p) => new URL(p, origin).href));
  return {
    origins,
    startUrl: `${origins[0]}index.html`,
    hits,
    pageUrls,
    maxInFlight: () => [...peak],
    hitsOf: (host) => hits.filter((hit) => hit.host === host),
    close: async () => {
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => resolve());
            }),
        ),
      );
    },
  };
}

/**
 * The process, of `pids`, that owns the loopback TCP socket with local port `port` (Linux: the socket's inode in
 * /proc/net/tcp, then the process whose fd table holds `socket:[inode]`), so a test can kill the worker that has a
 * given request in flight.
 *
 * @returns the pid, or undefined when none of them holds it (the connection is gone)
 */
export function processOfClientPort(port: number, pids: number[]): number | undefined {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[1]?.endsWith(`:${hexPort}`) && cols[9] !== undefined) inodes.add(cols[9]);
    }
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // exited
    }
    for (const fd of fds) {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
        if (inode !== undefined && inodes.has(inode)) return pid;
      } catch {
        // the fd closed meanwhile
      }
    }
  }
  return undefined;
}
