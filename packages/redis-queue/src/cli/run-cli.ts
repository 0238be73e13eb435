import { permissionErrorOf } from '@crawlee-distributed/redis-kit';
import { Command, CommanderError } from 'commander';
import { queueAclAdvice } from '../core/acl-advice.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { wrongTypeErrorOf } from '../errors/wrong-type-error-of.js';
import { PACKAGE_VERSION } from '../core/version.js';
import { COMMANDS } from './commands/index.js';
import type { CliIo } from './context.js';
import { cliErrorText } from './cli-advice.js';
import { CliUsageError } from './errors/cli-usage-error.js';
import { maskCredentials } from './mask-credentials.js';

/** Exit codes of `crawlee-redis`. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/**
 * Builds the `crawlee-redis` program.
 *
 * @param io - streams
 * @returns the commander program
 */
export function createProgram(io: CliIo): Command {
  const program = new Command('crawlee-redis')
    .description('Operate crawlee-redis-queue fleets: queues, workers, seeds, dead letters, metrics, the web dashboard, dataset export.')
    .version(PACKAGE_VERSION)
    // Shown after the command: npx (npm exec) takes options before the command for itself, so that form loses them.
    .usage('<command> [options]')
    // Also accepted before the command (`crawlee-redis --key-prefix x ls`); one given after the command wins.
    .option('--redis <url>', 'Redis URL for every command, or a Redis Cluster: any node\'s URL, or seed nodes separated by commas (default: $REDIS_URL, else redis://127.0.0.1:6379)')
    .option('--key-prefix <prefix>', 'key prefix of the queues (default: crawlee)')
    .option('--json', 'print JSON for scripts instead of text')
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText(
      'after',
      '\nEvery command takes --redis URL (default $REDIS_URL, else redis://127.0.0.1:6379), --key-prefix and --json after the command\n' +
        '(crawlee-redis ls --redis URL); the installed bin also takes them before it, npx does not (npm takes them for itself).\n' +
        'A Redis Cluster is found by asking the server (INFO cluster); give any node\'s URL, or several separated by commas.\n' +
        'Exit codes: 0 ok, 1 runtime failure (Redis unreachable, queue missing, not supported yet), 2 usage (bad arguments, refused confirmation).\n' +
        'Through npx, which takes --help and --version for itself: npx crawlee-redis help [command], npx crawlee-redis version.',
    )
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(maskCredentials(text)),
      writeErr: (text) => io.stderr.write(maskCredentials(text)),
    });
  for (const command of COMMANDS) command.register(program, io);
  for (const command of program.commands) command.exitOverride();
  return program;
}

/**
 * Runs `crawlee-redis` with these arguments.
 *
 * @param argv - `process.argv`
 * @param io - streams (default: the process's)
 * @returns the exit code: 0 ok, 1 runtime failure, 2 usage error
 */
export async function runCli(argv: string[], io: CliIo = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin }): Promise<number> {
  const program = createProgram(io);
  try {
    // `npx crawlee-redis --redis URL ls`: npm takes --redis for itself and passes the URL on as the command.
    const first = argv[2];
    if (first !== undefined && /^(rediss?|unix):\/\//i.test(first)) {
      throw new CliUsageError(
        `${first} is not a command: an option before the command was taken by npx (npm reads options placed before the command). Put --redis, --key-prefix and --json after the command: npx crawlee-redis ls --redis URL`,
      );
    }
    await program.parseAsync(argv);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are exits too; commander printed its message already.
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return EXIT.ok;
      if (error.code === 'commander.executeSubCommandAsync') return EXIT.failure;
      return EXIT.usage;
    }
    const usage = error instanceof CliUsageError || error instanceof InvalidOptionsError;
    // A command sent straight to Redis (not through a queue script) that the ACL refuses: typed, with the rules.
    const prefix = argv[argv.indexOf('--key-prefix') + 1];
    const shown = permissionErrorOf(error, 'crawlee-redis', { advice: queueAclAdvice(argv.includes('--key-prefix') && prefix ? prefix : 'crawlee') }) ?? wrongTypeErrorOf(error) ?? error;
    const { message, advice } = cliErrorText(shown);
    // A typed error that names its package already ("crawlee-redis: Redis refused ...") is not prefixed twice.
    io.stderr.write(`${maskCredentials(`crawlee-redis: ${message.replace(/^crawlee-redis: /, '')}`)}${advice ? ` ${advice}` : ''}\n`);
    return usage ? EXIT.usage : EXIT.failure;
  }
}
