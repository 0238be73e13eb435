import { CLI_CONNECT_TIMEOUT_SECS } from './cli-redis.js';

/** The parts of the packages' typed Redis errors the advice reads (matched by `code`: bundles carry their own classes). */
interface CodedError extends Error {
  code?: unknown;
  url?: string;
  reply?: string;
  afterConnect?: boolean;
}

/** Where a CLI user puts credentials: the URL of --redis, or REDIS_URL (out of `ps` and shell history). */
const CREDENTIALS =
  'Give them in the URL: --redis redis://USER:PASSWORD@host:port (redis://:PASSWORD@host:port for the default user), ' +
  'or better set REDIS_URL to that URL, which other users cannot read with ps.';

/** What the CLI prints for an error: the message (masked by the caller) and static advice (printed as it is: its
 * URL placeholders hold no secret, and masking would turn `USER:PASSWORD@` into `USER:***@`). */
export interface CliErrorText {
  message: string;
  advice?: string;
}

/**
 * What the CLI prints for an error. The packages' connection errors advise library options
 * (`redisOptions`, `connectTimeoutSecs`) that a CLI user cannot pass: for those the advice names what the CLI takes
 * (the --redis URL, REDIS_URL, NODE_EXTRA_CA_CERTS) instead. Every other error keeps its own message.
 *
 * @param error - what a command threw
 * @returns the text after `crawlee-redis: `
 */
export function cliErrorText(error: unknown): CliErrorText {
  if (!(error instanceof Error)) return { message: String(error) };
  const e = error as CodedError;
  switch (e.code) {
    case 'REDIS_AUTH':
      return {
        message:
          e.reply === 'NOAUTH'
            ? `Redis at ${e.url} requires a password and none was given (NOAUTH).`
            : `Redis at ${e.url} refused the user name or password (WRONGPASS: wrong user or password, or the user is disabled).`,
        advice: CREDENTIALS,
      };
    case 'REDIS_UNREACHABLE': {
      if (e.afterConnect === true) return { message: e.message.replace(/Check that Redis[\s\S]*$/, 'Check that Redis is running there and reachable from this machine, then run the command again.') };
      const last = e.cause instanceof Error ? ` (last error: ${e.cause.message})` : '';
      return {
        message:
          `cannot connect to Redis at ${e.url} within ${CLI_CONNECT_TIMEOUT_SECS} s${last}. Start Redis there, or give the ` +
          'right one with --redis URL or REDIS_URL (a Redis Cluster: any node\'s URL, or seed nodes separated by commas).',
      };
    }
    case 'REDIS_TLS':
      return {
        message: e.message.replace(
          /For a server certificate signed by your own CA pass[^;]*;/,
          'For a server certificate signed by your own CA, run the command with NODE_EXTRA_CA_CERTS=/path/to/ca.crt;',
        ),
      };
    case 'REDIS_DB_INDEX':
      return { message: e.message.replace('Use a database index', 'In the --redis URL or REDIS_URL, use a database index') };
    default:
      return { message: e.message };
  }
}
