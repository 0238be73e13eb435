// Printed by `npm start` before turbo builds the packages: a first build (no dist/ yet) takes a few minutes on a
// small machine and turbo prints nothing until it is done, so the user is told why the command seems to hang.
import { existsSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';

// The example is built last (it depends on every package): without its bundle, this is a first build.
const built = existsSync(new URL('../examples/distributed-cheerio/dist/cli.js', import.meta.url));
process.stdout.write(
  built
    ? 'building the packages (only what changed: a few seconds)...\n'
    : 'building the packages (first run: a few minutes)...\n',
);
