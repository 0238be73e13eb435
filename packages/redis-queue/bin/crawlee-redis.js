#!/usr/bin/env node
// The `crawlee-redis` command. This file is committed (not built) so that `npm ci` / `npm install` can link it
// into node_modules/.bin at install time, before `dist/` exists: in a clone, `npx crawlee-redis` then runs this
// local bin (and never asks the public registry for a package of that name). The CLI itself is dist/cli/bin.js.
import { existsSync } from 'node:fs';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const cli = new URL('../dist/cli/bin.js', import.meta.url);
if (!existsSync(fileURLToPath(cli))) {
  process.stderr.write(
    `crawlee-redis: ${fileURLToPath(cli)} does not exist: the package is not built yet. ` +
      'Run `npm run build` (or `npm start`) at the repository root, then run the command again.\n',
  );
  process.exit(2);
}
await import(cli.href);
