import { startDashboard } from '../../dashboard/start-dashboard.js';
import { defineCliCommand } from '../define-command.js';
import { CliUsageError } from '../errors/cli-usage-error.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** `crawlee-redis dashboard [--port] [--host]`: the web dashboard of every queue under the prefix, until Ctrl-C / SIGTERM. */
export const dashboardCommand = defineCliCommand(
  'dashboard',
  (c) =>
    c
      .description('serve the web dashboard of every queue under the key prefix at http://<host>:<port>/ (until Ctrl-C)')
      .option('--port <port>', 'TCP port (0 picks a free one)', '8370')
      .option('--host <address>', 'address to bind (loopback by default; the dashboard has no login and can requeue dead letters)', '127.0.0.1'),
  async (ctx, _args, options) => {
    const port = Number(options.port);
    if (!/^\d+$/.test(String(options.port)) || port > 65535) throw new CliUsageError(`--port must be a TCP port number from 0 to 65535 (got ${String(options.port)})`);
    const host = options.host as string;
    // Checked before the server starts: an unreachable Redis fails the command (exit 1) instead of a page of errors.
    const redis = await ctx.redisTarget();
    const dashboard = await startDashboard({ redis, keyPrefix: ctx.keyPrefix, port, host });
    const exposed = !LOOPBACK.has(host);
    if (exposed) ctx.warn(`the dashboard listens on ${host}: it has no authentication and can requeue dead letters; anyone who can reach ${dashboard.url} can use it`);
    if (ctx.json) ctx.print(JSON.stringify({ url: dashboard.url, keyPrefix: ctx.keyPrefix, exposed }));
    else ctx.print(`dashboard of key prefix "${ctx.keyPrefix}" on ${ctx.redisUrl}: open ${dashboard.url} (Ctrl-C to stop)`);
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        resolve();
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await dashboard.close();
  },
);
