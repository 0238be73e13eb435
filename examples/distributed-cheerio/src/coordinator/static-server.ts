import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sirv from 'sirv';

/** A static folder served on a loopback port for the length of a run. */
export interface StaticSite {
  /** `http://127.0.0.1:<port>/` */
  origin: string;
  /** GET requests answered per path (with query), to tell how often the server was actually asked for a page. */
  fetches: Map<string, number>;
  close(): Promise<void>;
}

/**
 * Serves `dir` with sirv on 127.0.0.1 and a port the kernel picks (so two runs never collide), or on `port` (a
 * resumed queue's requests point at the origin its first run served).
 *
 * @param dir - the folder to serve
 * @param port - the port to listen on; 0 or unset: a free one
 * @throws the listen error (`EADDRINUSE` when `port` is taken)
 */
export async function serveStaticFolder(dir: string, port = 0): Promise<StaticSite> {
  // dev: false lists the folder once at start (the docs do not change during a crawl) and answers from that index.
  const handler = sirv(dir, { dev: false, etag: false, dotfiles: false });
  const fetches = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url !== undefined) fetches.set(req.url, (fetches.get(req.url) ?? 0) + 1);
    handler(req, res, () => {
      res.statusCode = 404;
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end('<!doctype html><title>Not found</title><h1>Not found</h1>');
    });
  });
  // Crawlee's HTTP client keeps sockets alive; a server closing an idle socket first races with a request being
  // written on it (ECONNRESET, then a retry and a second fetch). Keep idle sockets longer than the client does.
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 125_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${address.port}/`,
    fetches,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
