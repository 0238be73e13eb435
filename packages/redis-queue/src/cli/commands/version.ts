import type { Command } from 'commander';
import { PACKAGE_VERSION } from '../../core/version.js';
import type { CliCommandModule } from '../define-command.js';

/**
 * `crawlee-redis version`: the package version, like `--version`. `npx crawlee-redis --version` prints npm's own
 * version (npx takes the flag), so the command form is the one that always reaches the CLI. Needs no Redis.
 */
export const versionCommand: CliCommandModule = {
  name: 'version',
  register(program, io) {
    program
      .command('version')
      .description('print the version of crawlee-redis-queue (as --version does)')
      .option('--json', 'print { "version": ... }')
      .action((options: { json?: boolean }, command: Command) => {
        const json = options.json === true || command.parent?.opts<{ json?: boolean }>().json === true;
        io.stdout.write(json ? `${JSON.stringify({ version: PACKAGE_VERSION })}\n` : `${PACKAGE_VERSION}\n`);
      });
  },
};
