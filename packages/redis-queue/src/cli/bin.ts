#!/usr/bin/env node
// The `crawlee-redis` command (bin of crawlee-redis-queue). See src/cli/run-cli.ts for the exit codes.
//
// Crawlee's own notices (e.g. about POST requests while seeding) are noise in a command's output. Its loggers read
// the level when Crawlee is first imported (child loggers copy it), so it is set before the CLI is loaded;
// CRAWLEE_LOG_LEVEL / APIFY_LOG_LEVEL still win.
process.env.APIFY_LOG_LEVEL ??= process.env.CRAWLEE_LOG_LEVEL ?? 'ERROR';

void import('./run-cli.js').then(async ({ runCli }) => {
  process.exitCode = await runCli(process.argv);
});
