import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';
import { integerOption } from '../options/option-ranges.js';

/**
 * Serves a registry at `/metrics` (and `/` ). A failed Redis read answers 503 with the message, so Prometheus marks
 * the scrape as failed instead of recording zeros.
 *
 * @param registry - the registry
 * @param port - TCP port, 0 to 65,535 (0: any free port)
 * @throws {@link InvalidOptionsError} for a port outside that range
 * @param host - address to bind; loopback by default so the metrics are not exposed by accident
 * @returns the listening server
 */
export async function startMetricsServer(registry: Registry, port: number, host = '127.0.0.1'): Promise<Server> {
  integerOption('port', port);
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' || (path !== '/metrics' && path !== '/')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found; metrics are at /metrics\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: unknown) => res.writeHead(503, { 'content-type': 'text/plain' }).end(`metrics unavailable: ${String((error as Error)?.message ?? error)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
