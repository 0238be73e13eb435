#!/usr/bin/env node
// The `crawlee-redis` command (bin of crawlee-redis-queue). See src/cli/run-cli.ts for the exit codes.
//
// Crawlee's own notices (e.g. about POST requests while seeding) are noise in a command's output. Its loggers read
// the level when Crawlee is first imported (child loggers copy it), so it is set before the CLI is loaded;
// CRAWLEE_LOG_LEVEL / APIFY_LOG_LEVEL still win.
process.env.APIFY_LOG_LEVEL ??= process.env.CRAWLEE_LOG_LEVEL ?? 'ERROR';

// A reader that stops early (`crawlee-redis ls | head`) closes the pipe: that is the reader's choice, not an error,
// so the command ends quietly as Unix tools do instead of printing an EPIPE stack.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

void import('./run-cli.js').then(async ({ runCli }) => {
  process.exitCode = await runCli(process.argv);
});
