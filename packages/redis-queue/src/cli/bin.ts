#!/usr/bin/env node
// The `crawlee-redis` command (bin of crawlee-redis-queue). See src/cli/run-cli.ts for the exit codes.
import { runCli } from './run-cli.js';

void runCli(process.argv).then((code) => {
  process.exitCode = code;
});
