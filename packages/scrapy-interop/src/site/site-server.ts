import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AccessLog } from './access-log.js';
import type { SiteModel } from './site-model.js';

/** Options of {@link startSiteServer}. */
export interface SiteServerOptions {
  /** Milliseconds every page waits before it answers (keeps both fleets busy at once). @defaultValue 0 */
  delayMs?: number;
  /** Milliseconds an entry page (`/seed/<j>`) waits instead. @defaultValue `delayMs` */
  seedDelayMs?: number;
  /** JSON Lines file for the access log. */
  accessLogFile?: string;
}

/** A running site. */
export interface SiteServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  log: AccessLog;
  close(): Promise<void>;
}

/**
 * Serves the {@link SiteModel} on a free loopback port and logs every request (method, target, time, user agent).
 * Unknown paths (robots.txt included) answer 404 and are logged too.
 */
export async function startSiteServer(
  model: SiteModel,
  options: SiteServerOptions = {},
): Promise<SiteServer> {
  const log = new AccessLog(options.accessLogFile);
  const delayMs = options.delayMs ?? 0;
  const seedDelayMs = options.seedDelayMs ?? delayMs;
  const server: Server = createServer((req, res) => {
    const target = req.url ?? '/';
    const pathname = target.split('?')[0]!;
    const html = model.html(pathname);
    const status = html === undefined ? 404 : 200;
    log.record({
      method: req.method ?? '',
      path: target,
      time: Date.now(),
      userAgent: req.headers['user-agent'] ?? '',
      status,
    });
    const wait = pathname.startsWith('/seed/') ? seedDelayMs : delayMs;
    setTimeout(
      () => {
        res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
        res.end(html ?? 'not found');
      },
      status === 200 ? wait : 0,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
