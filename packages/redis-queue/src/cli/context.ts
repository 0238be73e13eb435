import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { RedisQueueAdmin } from '../admin/redis-queue-admin.js';
import type { RedisConnection, RedisConnectionOption } from '../core/connection.js';
import { assertKeyPrefix, queueKeys } from '../core/keys.js';
import { maskRedisUrl } from '../core/mask-redis-url.js';
import { keyTypeError } from '../errors/wrong-type-error-of.js';
import { ConfirmationRequiredError } from './errors/confirmation-required-error.js';
import { CliUsageError } from './errors/cli-usage-error.js';
import { maskCredentials } from './mask-credentials.js';
import { connectCliRedis, parseRedisUrls, type CliRedis } from './cli-redis.js';

/** Options every command takes. */
export interface CommonOptions {
  redis?: string;
  keyPrefix: string;
  json?: boolean;
  yes?: boolean;
}

/** Where the CLI writes and reads (process streams, or test doubles). */
export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
}

/**
 * Adds `--redis`, `--key-prefix` and `--json` to a command.
 *
 * @param command - a commander command
 * @returns the same command
 */
export function withCommonOptions(command: Command): Command {
  return command
    .option('--redis <url>', 'Redis URL, or a Redis Cluster: any node\'s URL, or seed nodes separated by commas (default: $REDIS_URL, else redis://127.0.0.1:6379)')
    .option('--key-prefix <prefix>', 'key prefix of the queues', 'crawlee')
    .option('--json', 'print JSON for scripts instead of text');
}

/** Adds `-y, --yes` (skip the confirmation of a destructive command). @param command - a commander command */
export function withYes(command: Command): Command {
  return command.option('-y, --yes', 'do not ask for confirmation (needed when stdin is not a terminal)');
}

/** One command's run: its options, its Redis connection (opened on first use), output helpers. */
export class CliContext {
  /** The Redis URL in use (masked when printed); a Cluster's seed nodes separated by commas. */
  readonly redisUrl: string;
  /** The URLs of {@link CliContext.redisUrl}: one, or a Cluster's seed nodes. */
  private readonly redisUrls: string[];
  readonly keyPrefix: string;
  readonly json: boolean;
  private connection: Promise<CliRedis> | undefined;
  private readonly admins: RedisQueueAdmin[] = [];

  /**
   * @param options - the command's parsed options
   * @param io - streams
   * @throws {@link CliUsageError} for a key prefix with braces or an empty one, or a URL that is not redis(s)://
   *   (see {@link parseRedisUrls})
   */
  constructor(
    readonly options: CommonOptions,
    readonly io: CliIo,
  ) {
    this.redisUrl = options.redis ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    this.redisUrls = parseRedisUrls(this.redisUrl);
    this.keyPrefix = options.keyPrefix;
    try {
      assertKeyPrefix('--key-prefix', this.keyPrefix);
    } catch (error) {
      throw new CliUsageError((error as Error).message);
    }
    this.json = options.json === true;
  }

  /** The connection (a standalone Redis or a Redis Cluster), connected; see {@link connectCliRedis} for its errors. */
  async redis(): Promise<RedisConnection> {
    return (await this.connect()).handle.redis;
  }

  /**
   * What a command that opens its own connection (the dashboard) is given: the URL of a standalone Redis, or this
   * context's Cluster connection (a URL always means a standalone connection to the library).
   */
  async redisTarget(): Promise<RedisConnectionOption> {
    const connection = await this.connect();
    return connection.cluster ? connection.handle.redis : this.redisUrl;
  }

  private connect(): Promise<CliRedis> {
    this.connection ??= connectCliRedis(this.redisUrls, this.keyPrefix);
    return this.connection;
  }

  /**
   * An admin of one queue, on this context's connection.
   *
   * @param name - the queue name
   * @param mustExist - fail when the queue has no metadata
   * @param anyMeta - accept a metadata key of another type than a hash (only `drop`, which deletes it)
   * @throws {@link CliUsageError} for a name with braces
   * @throws Error when `mustExist` and the queue does not exist (exit 1)
   * @throws {@link KeyTypeError} when the queue's metadata is not a hash (another program wrote it), unless `anyMeta`
   */
  async admin(name: string, mustExist = true, anyMeta = false): Promise<RedisQueueAdmin> {
    try {
      queueKeys(this.keyPrefix, name);
    } catch (error) {
      throw new CliUsageError((error as Error).message);
    }
    const redis = await this.redis();
    const admin = new RedisQueueAdmin({ redis, keyPrefix: this.keyPrefix, name });
    this.admins.push(admin);
    const type = await (await this.connect()).handle.run(() => redis.type(admin.keys.meta));
    if (type !== 'none' && type !== 'hash' && !anyMeta) throw keyTypeError(admin.keys.meta);
    if (mustExist && type === 'none') {
      throw new Error(`queue "${name}" does not exist under key prefix "${this.keyPrefix}" on ${maskRedisUrl(this.redisUrl)}; \`crawlee-redis ls\` lists the queues`);
    }
    return admin;
  }

  /** The connection handle, connected: for commands that go past the admin (deleting a broken queue's keys). */
  async handle(): Promise<CliRedis['handle']> {
    return (await this.connect()).handle;
  }

  /** Prints a line (credentials masked). @param text - the text */
  print(text: string): void {
    this.io.stdout.write(`${maskCredentials(text)}\n`);
  }

  /** Prints a value as JSON (credentials masked). @param value - the value */
  printJson(value: unknown): void {
    this.print(JSON.stringify(value, null, 2));
  }

  /** Prints a warning to stderr. @param text - the text */
  warn(text: string): void {
    this.io.stderr.write(`${maskCredentials(`warning: ${text}`)}\n`);
  }

  /**
   * Asks before a destructive action: `--yes` skips the question; on a terminal the user types the queue name;
   * without a terminal the command is refused.
   *
   * @param what - what will happen, e.g. `purge queue "x" (12 requests)`
   * @param name - the word the user must type
   * @throws {@link ConfirmationRequiredError} when refused (exit 2, nothing changed)
   */
  async confirm(what: string, name: string): Promise<void> {
    if (this.options.yes) return;
    if (!this.io.stdin.isTTY) {
      throw new ConfirmationRequiredError(`refusing to ${what} without confirmation: stdin is not a terminal; pass --yes`);
    }
    const rl = createInterface({ input: this.io.stdin, output: this.io.stderr });
    try {
      const answer = await rl.question(maskCredentials(`About to ${what} on ${this.redisUrl}. Type the queue name to confirm: `));
      if (answer.trim() !== name) throw new ConfirmationRequiredError(`not confirmed (expected "${name}"); nothing was changed`);
    } finally {
      rl.close();
    }
  }

  /** Closes the connection (one that failed to open has nothing to close). */
  async close(): Promise<void> {
    await (await this.connection?.catch(() => undefined))?.close();
  }
}
