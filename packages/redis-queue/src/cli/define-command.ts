import type { Command } from 'commander';
import { CliContext, withCommonOptions, withYes, type CliIo, type CommonOptions } from './context.js';
import { CliUsageError } from './errors/cli-usage-error.js';

/** The options every command takes that may also come before the command (`crawlee-redis --redis URL ls`). */
const PROGRAM_OPTIONS = ['redis', 'keyPrefix', 'json'] as const;

/**
 * The command's options with the program-level ones filled in: an option given after the command wins, then one
 * given before it, then the command's default. (commander's `optsWithGlobals()` lets the program's value win even
 * over one typed after the command, and the command's default `--key-prefix` would hide the program's.)
 *
 * @param command - the command being run
 * @returns its options
 */
function withProgramOptions(command: Command): CommonOptions & Record<string, unknown> {
  const options = { ...command.opts<CommonOptions & Record<string, unknown>>() };
  const program = command.parent?.opts<Partial<CommonOptions>>() ?? {};
  for (const key of PROGRAM_OPTIONS) {
    if (command.getOptionValueSource(key) !== 'cli' && program[key] !== undefined) (options as Record<string, unknown>)[key] = program[key];
  }
  return options;
}

/**
 * Rejects an empty or whitespace-only positional argument (a queue name, a URL or uniqueKey, a dataset) or option
 * value (`--id ''`, `--from ' '`): exit 2, nothing connected or written.
 *
 * @param command - the command being run, after parsing
 * @param options - its options
 * @throws {@link CliUsageError} naming the argument or option
 */
function rejectBlankValues(command: Command, options: Record<string, unknown>): void {
  const blank = (value: unknown) => typeof value === 'string' && value.trim() === '';
  const args = command.processedArgs as unknown[];
  command.registeredArguments.forEach((argument, i) => {
    const values = Array.isArray(args[i]) ? (args[i] as unknown[]) : [args[i]];
    if (values.some(blank)) {
      throw new CliUsageError(`<${argument.name()}> must not be empty or blank (got ${values.filter(blank).map((v) => JSON.stringify(v)).join(', ')}); nothing was changed`);
    }
  });
  for (const option of command.options) {
    const value = options[option.attributeName()];
    const values = Array.isArray(value) ? (value as unknown[]) : [value];
    if (values.some(blank)) throw new CliUsageError(`${option.long ?? option.flags} must not be empty or blank; nothing was changed`);
  }
}

/** What a command does once its arguments are parsed. */
export type CommandAction = (ctx: CliContext, args: unknown[], options: CommonOptions & Record<string, unknown>) => Promise<void>;

/** One `crawlee-redis` command: a module with a name and a registration (see commands/index.ts). */
export interface CliCommandModule {
  readonly name: string;
  register(program: Command, io: CliIo): void;
}

/**
 * Defines a command module: the command gets `--redis`, `--key-prefix`, `--json` (and `--yes` when destructive);
 * its action runs with a {@link CliContext} whose connection is closed afterwards.
 *
 * @param name - the command name
 * @param build - adds arguments, options and the description to the command
 * @param run - the action
 * @param destructive - adds `--yes`
 * @returns the module
 *
 * @example
 * ```ts
 * // src/cli/commands/dashboard.ts: one file, then one import in commands/index.ts
 * export const dashboardCommand = defineCliCommand('dashboard', (c) => c.description('web dashboard').option('--port <n>'),
 *   async (ctx, _args, options) => { await startDashboard({ redis: await ctx.redis(), keyPrefix: ctx.keyPrefix, port: Number(options.port) }); });
 * ```
 */
export function defineCliCommand(name: string, build: (command: Command) => Command, run: CommandAction, destructive = false): CliCommandModule {
  return {
    name,
    register(program, io) {
      let command = withCommonOptions(build(program.command(name)));
      if (destructive) command = withYes(command);
      command.action(async (...received: unknown[]) => {
        const self = received[received.length - 1] as Command;
        const options = withProgramOptions(self);
        // Before the context (no connection yet): an empty name, id, key or URL would address nothing, or the wrong
        // thing (`forget Q ''` would hash the empty uniqueKey), so nothing is written for it.
        rejectBlankValues(self, options);
        // Connections this package creates do not keep Node alive while idle (their socket is unref'd between
        // operations); the CLI's own commands go straight to ioredis, so the process is kept alive until done.
        // The context first: it rejects bad options by throwing, and an interval set before it would keep the
        // process alive after the error was printed.
        const ctx = new CliContext(options, io);
        const keepAlive = setInterval(() => undefined, 1 << 30);
        try {
          await run(ctx, self.processedArgs as unknown[], options);
        } finally {
          await ctx.close();
          clearInterval(keepAlive);
        }
      });
    },
  };
}
