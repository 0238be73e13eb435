import { createMetricsRegistry } from '../../metrics/create-metrics-registry.js';
import { startMetricsServer } from '../../metrics/metrics-server.js';
import { defineCliCommand } from '../define-command.js';
import { CliUsageError } from '../errors/cli-usage-error.js';

/** `crawlee-redis metrics [queues...] [--port] [--host]`: a Prometheus endpoint, until Ctrl-C / SIGTERM. */
export const metricsCommand = defineCliCommand(
  'metrics',
  (c) =>
    c
      .description('serve Prometheus metrics of the queues at http://<host>:<port>/metrics (until Ctrl-C)')
      .argument('[queues...]', 'queues to export (default: every queue under the key prefix)')
      .option('--port <port>', 'TCP port', '9464')
      .option('--host <address>', 'address to bind (loopback by default; 0.0.0.0 exposes it to the network)', '127.0.0.1'),
  async (ctx, [queues], options) => {
    const port = Number(options.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliUsageError(`--port must be a TCP port number (got ${String(options.port)})`);
    const names = queues as string[];
    const registry = createMetricsRegistry({ redis: await ctx.redis(), keyPrefix: ctx.keyPrefix, queues: names.length > 0 ? names : undefined });
    const server = await startMetricsServer(registry, port, options.host as string);
    const address = server.address();
    const url = `http://${options.host as string}:${typeof address === 'object' && address ? address.port : port}/metrics`;
    if (ctx.json) ctx.print(JSON.stringify({ url }));
    else ctx.print(`serving ${url} (Ctrl-C to stop)`);
    await new Promise<void>((resolve) => {
      const stop = () => server.close(() => resolve());
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
  },
);
